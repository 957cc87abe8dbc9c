import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { setTimeout } from 'node:timers/promises'
import { hookWorkDir } from '../src/config/data-paths.ts'
import { paneOf } from '../src/delivery/store/delivery-ledger.ts'
import { parseKeptWork } from '../src/hook-work/services/kept-work.ts'
import { readLeaseLog, readLeases } from '../src/leases/store/lease-table.ts'
import { readSessionPresence } from '../src/room/store/presence-table.ts'
import { readStore, type StoreReader } from './helpers/read-store.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { holdExclusiveLock, holdWriteLock } from './helpers/store-lock.ts'
import { tmpDir, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { agentHookEntry, claudeEdit, runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/**
 * Issue 19 item 7: a hook that cannot finish its work within its budget (a store locked past its
 * busy timeout, the budget spent before the input was even read) fails open, says so, and loses
 * nothing: what it kept is done afterwards, once, by the next hook.
 */
const session = 'c1a0de00-0000-4000-8000-00000000c0de'
const other = 'c1a0de00-0000-4000-8000-00000000beef'

async function project() {
  const home = tmpDir()
  const repo = tmpRepoWith({ 'src/a.ts': 'export const a = 1\n' })
  const env = isolatedEnv(home.path, { TMUX_PANE: '%7' })
  const init = await runCliJson<{ database: string }>(['init'], { cwd: repo.path, env })
  const journal = hookWorkDir(dirname(init.database))
  const read = <T>(query: (db: StoreReader) => T): T => readStore(init.database, query)
  return {
    repo: repo.path,
    env,
    database: init.database,
    hook: (payload: unknown) => runAgentHook('claude', payload, { cwd: repo.path, env }),
    edit: (file: string, id = session) => claudeEdit(repo.path, join(repo.path, file), id),
    leases: (id: string) =>
      read((db) => readLeases(db, Date.now()).filter((lease) => lease.holder.sessionId === id)).map(
        (lease) => lease.pattern,
      ),
    presence: (id: string) => read((db) => readSessionPresence(db, 'claude', id)?.state ?? null),
    pane: (id: string) => read((db) => paneOf(db, 'claude', id)),
    ended: () => read((db) => readLeaseLog(db, 0, ['session-ended'], 100)).map((entry) => entry.pattern),
    /** The journal's files, by kind (`work`, `brief`, `notice`). */
    journal: () => {
      try {
        return readdirSync(journal).map((name) => name.split('.')[0])
      } catch {
        return []
      }
    },
    /** When the earliest waiting step's pause ends (a step that failed again waits before its retry). */
    nextDue: () =>
      Math.min(
        ...readdirSync(journal)
          .filter((name) => name.startsWith('work.'))
          .map(
            (name) => parseKeptWork(JSON.parse(readFileSync(join(journal, name), 'utf8')))?.notBefore ?? 0,
          ),
      ),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

type Project = Awaited<ReturnType<typeof project>>

/**
 * Another session's hooks, each doing the kept work after its answer, until none is left that any
 * hook can do. One does it all unless a starved machine ends its drain at the budget, or a step the
 * locked-out hooks already retried is still in its pause (a hook skips it; the test waits it out).
 */
async function nextHooks(p: Project): Promise<void> {
  for (let run = 0; run < 10 && p.journal().includes('work'); run++) {
    const pause = p.nextDue() - Date.now()
    if (pause > 0) await setTimeout(pause)
    const next = await p.hook(p.edit('src/other.ts', other))
    assert.equal(next.code, 0, next.stderr)
    assert.equal(next.output?.hookSpecificOutput?.permissionDecision, undefined, next.stdout)
  }
  assert.ok(!p.journal().includes('work'), `kept work left: ${p.journal().join(', ')}`)
}

const contextOf = (run: Awaited<ReturnType<typeof runAgentHook>>): string =>
  run.output?.hookSpecificOutput?.additionalContext ?? ''

test('with the store locked past the budget, every hook says what it kept, and the next hook does it all once', async () => {
  await using p = await project()
  const lock = await holdWriteLock(p.database)
  const start = await p.hook(sessionEvent(p.repo, 'SessionStart', session))
  assert.equal(start.code, 0, start.stderr)
  assert.match(contextOf(start), /^sangam: the team brief is unavailable \(.+\)\./)
  assert.match(contextOf(start), /the team brief comes with your next prompt/)
  assert.match(
    start.stderr,
    /kept and done afterwards: the session's presence \(online\) \(.+\); the session brief/,
  )
  const edit = await p.hook(p.edit('src/new.ts'))
  assert.equal(edit.code, 0, edit.stderr)
  assert.equal(edit.output?.hookSpecificOutput?.permissionDecision, undefined)
  assert.match(contextOf(edit), /auto-lease was not recorded in time; the edit is allowed/)
  assert.match(edit.stderr, /kept and done afterwards: the auto-lease of this edit's file/)
  const stop = await p.hook(sessionEvent(p.repo, 'Stop', session))
  assert.equal(stop.stdout, '', 'a Claude Stop that does not block says nothing')
  assert.match(
    stop.stderr,
    /kept and done afterwards: the session's tmux pane \(.+\); the session's presence \(idle\)/,
  )
  await lock.release()
  assert.deepEqual(
    [p.presence(session), p.leases(session), p.pane(session)],
    [null, [], null],
    'nothing was recorded while the lock was held',
  )

  await nextHooks(p)
  assert.deepEqual(p.leases(session), ['src/new.ts'])
  assert.equal(p.presence(session), 'idle', 'online, then idle, in the order the hooks ran')
  assert.equal(p.pane(session), '%7')
  assert.deepEqual(p.journal(), ['brief'], 'the brief waits for its session')

  const prompt = await p.hook(sessionEvent(p.repo, 'UserPromptSubmit', session))
  assert.equal(prompt.code, 0, prompt.stderr)
  assert.match(
    contextOf(prompt),
    /^sangam: the team brief, which your session's start could not give in time:/,
  )
  assert.deepEqual(p.journal(), [])
  const later = await p.hook(sessionEvent(p.repo, 'UserPromptSubmit', session))
  assert.doesNotMatch(contextOf(later), /the team brief/, 'given once')

  // The session ends while the store is locked: its release and its offline presence are kept.
  const again = await holdWriteLock(p.database)
  const end = await p.hook(sessionEvent(p.repo, 'SessionEnd', session))
  await again.release()
  assert.equal(end.code, 0, end.stderr)
  assert.match(
    end.stderr,
    /kept and done afterwards: the session's presence \(offline\) \(.+\); the release of the session's leases/,
  )
  assert.deepEqual(p.leases(session), ['src/new.ts'])
  await nextHooks(p)
  assert.deepEqual(p.leases(session), [])
  assert.equal(p.presence(session), 'offline')
  await nextHooks(p)
  assert.deepEqual(p.ended(), ['src/new.ts'], 'released once')
})

test('a store held in EXCLUSIVE mode: every event answers within its budget instead of waiting on SQLite, and keeps its work', async () => {
  await using p = await project()
  const lock = await holdExclusiveLock(p.database)
  const start = await p.hook(sessionEvent(p.repo, 'SessionStart', session))
  const edit = await p.hook(p.edit('src/new.ts'))
  const prompt = await p.hook(sessionEvent(p.repo, 'UserPromptSubmit', session))
  const stop = await p.hook(sessionEvent(p.repo, 'Stop', session))
  await lock.release()
  // Before, opening the store to write waited out SQLite's setup patience (a minute), the
  // watchdog unable to fire during it, and the host killed the hook.
  for (const run of [start, edit, prompt, stop]) {
    assert.equal(run.signal, null, run.stderr)
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stderr, /kept and done afterwards: /)
  }
  assert.match(contextOf(start), /the team brief comes with your next prompt/)
  assert.match(contextOf(edit), /auto-lease was not recorded in time/)
  await nextHooks(p)
  assert.deepEqual(p.leases(session), ['src/new.ts'])
  assert.equal(p.presence(session), 'idle')
  assert.equal(p.pane(session), '%7')
})

test("an auto-lease recorded late that meets someone else's claim: the claim stands, and the session is told at its next hook", async () => {
  await using p = await project()
  const lock = await holdWriteLock(p.database)
  const edit = await p.hook(p.edit('src/a.ts'))
  await lock.release()
  assert.match(edit.stderr, /kept and done afterwards: the auto-lease of this edit's file/)
  await runCliJson(['claim', 'src/a.ts', '-r', 'parser work'], {
    cwd: p.repo,
    env: { ...p.env, SANGAM_USER: 'bob@example.com' },
  })
  await nextHooks(p)
  assert.deepEqual(p.leases(session), [], "no lease over bob's claim")
  assert.deepEqual(p.journal(), ['notice'])
  const next = await p.hook(p.edit('src/b.ts'))
  assert.match(
    contextOf(next),
    /sangam: your edit of src\/a\.ts at \d\d:\d\d:\d\d UTC went through before its lease check finished \(.+\)\. Checked afterwards: src\/a\.ts is leased to bob@example\.com .*"parser work"/,
  )
  assert.deepEqual(p.journal(), [])
  assert.doesNotMatch(contextOf(await p.hook(p.edit('src/b.ts'))), /went through before/, 'told once')
})

test('a hook whose budget runs out before its input arrives says so, keeps what the input asks, and the next hook does it', async () => {
  await using p = await project()
  // A host that writes the payload only after the budget (a starved machine): the watchdog
  // answers first, then the process reads the input and keeps its work without doing it.
  const child = spawn(process.execPath, [agentHookEntry, 'claude'], {
    cwd: p.repo,
    env: p.env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
      if (stderr.includes('\n')) resolve()
    }),
  )
  assert.match(stderr, /no decision within the 1500 ms time budget, before the hook had read its input/)
  child.stdin.end(JSON.stringify(p.edit('src/late.ts')))
  assert.equal(await exited, 0, stderr)
  assert.equal(stdout, '')
  assert.deepEqual(p.leases(session), [], 'kept, not done')
  assert.deepEqual(p.journal(), ['work'])
  await nextHooks(p)
  assert.deepEqual(p.leases(session), ['src/late.ts'])
})
