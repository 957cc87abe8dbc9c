import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { parseKeptWork } from '../hook-work/services/kept-work.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { HookWork } from './hook-work.ts'

const session = { human: 'alice@x.dev', vendor: 'claude', sessionId: 's-1' } as const

test("the budget's end keeps every step still open, once, and none that was done", async () => {
  await using dir = tmpDir()
  const journal = join(dir.path, 'hook-work')
  const work = new HookWork(1000, 42)
  work.begin(journal, 'SessionEnd', session)
  const presence = work.plan({ kind: 'presence', state: 'offline', worktree: '/repo' })
  const release = work.plan({ kind: 'release' })
  presence.done()
  const kept = work.keepOpen('no decision within the 1500 ms time budget')
  assert.deepEqual(kept, [
    {
      kind: 'release',
      text: "the release of the session's leases (no decision within the 1500 ms time budget)",
    },
  ])
  release.keep('again')
  assert.equal(work.keepOpen('and again').length, 1, 'kept once')
  const files = readdirSync(journal)
  assert.equal(files.length, 1)
  const stored = parseKeptWork(JSON.parse(readFileSync(join(journal, files[0] ?? ''), 'utf8')))
  assert.deepEqual(stored, {
    step: { kind: 'release' },
    session,
    event: 'SessionEnd',
    at: 1000,
    why: 'no decision within the 1500 ms time budget',
    attempts: 0,
    notBefore: 0,
  })
})

test('a busy store or an unreachable server keeps a step; a store that is no database does not', async () => {
  await using dir = tmpDir()
  const work = new HookWork(1000, 42)
  work.begin(join(dir.path, 'hook-work'), 'Stop', session)
  const pane = work.plan({ kind: 'pane', pane: '%3' })
  const presence = work.plan({ kind: 'presence', state: 'idle', worktree: '/repo' })
  assert.equal(pane.fail(new SangamError(ErrorCode.StoreBusy, 'the database is locked')), true)
  assert.equal(presence.fail(new SangamError(ErrorCode.StoreIncompatible, 'not a database')), false)
  assert.deepEqual(
    work.kept().map((note) => note.kind),
    ['pane'],
  )
  assert.deepEqual(work.keepOpen('budget'), work.kept(), 'a dropped step is not kept later either')
})

test('steps planned after a spent budget are only kept; a journal that cannot be written says so', async () => {
  await using dir = tmpDir()
  // A file where the project's directory should be: not even root can write below it.
  const notADirectory = join(dir.path, 'project')
  writeFileSync(notADirectory, '')
  const work = new HookWork(1000, 42)
  assert.equal(work.begun, false)
  work.spend()
  work.begin(join(notADirectory, 'hook-work'), 'PreToolUse', session)
  work.plan({ kind: 'auto-lease', files: ['/repo/src/a.ts'], cwd: '/repo', worktrees: ['/repo'] })
  assert.equal(work.spent, true)
  const [note] = work.keepOpen('the time budget ran out before the hook could begin')
  assert.match(
    note?.text ?? '',
    /^the auto-lease of this edit's file \(.*\), NOT kept: the journal cannot be written/,
  )
})
