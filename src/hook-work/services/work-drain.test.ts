import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { hookWorkDir } from '../../config/data-paths.ts'
import { LocalLeaseArbiter } from '../../leases/services/local-arbiter.ts'
import { readLeaseLog, readLeases } from '../../leases/store/lease-table.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { recordPresence } from '../../room/services/presence.ts'
import { readSessionPresence } from '../../room/store/presence-table.ts'
import { ManualClock } from '../../shared/clock.ts'
import { silentLogger } from '../../shared/logger.ts'
import type { Db } from '../../store/database.ts'
import type { KeptWork, WorkSession, WorkStep } from './kept-work.ts'
import { claimSessionMail } from './session-mail.ts'
import { type DrainOptions, drainHookWork } from './work-drain.ts'
import { journalEntries, keepWork } from './work-journal.ts'

const start = Date.parse('2026-12-01T10:00:00Z')
const claude: WorkSession = {
  human: 'alice@x.dev',
  vendor: 'claude',
  sessionId: 'c1a0de00-0000-4000-8000-000000000001',
}

async function world() {
  const dir = tmpDir()
  const projectDir = join(dir.path, 'project')
  const worktree = join(dir.path, 'repo')
  mkdirSync(projectDir)
  mkdirSync(join(worktree, 'src'), { recursive: true })
  const database = join(projectDir, 'sangam.db')
  const db = openDatabaseFile(database)
  const clock = new ManualClock(start)
  const journal = hookWorkDir(projectDir)
  const root = realpathSync(worktree)
  const options = (overrides: Partial<DrainOptions> = {}): DrainOptions => ({
    dir: journal,
    projectDir,
    db,
    sangamHome: join(dir.path, 'home'),
    clock,
    pid: 4242,
    isAlive: () => true,
    timeoutMs: 1000,
    log: silentLogger,
    ...overrides,
  })
  return {
    db,
    database,
    clock,
    journal,
    root,
    options,
    keep(step: WorkStep, at = clock.now(), session = claude): string {
      const work: KeptWork = {
        step,
        session,
        event: 'PreToolUse',
        at,
        why: 'store busy',
        attempts: 0,
        notBefore: 0,
      }
      return keepWork(journal, work, 77)
    },
    edit(file: string): WorkStep {
      return { kind: 'auto-lease', files: [join(root, file)], cwd: root, worktrees: [root] }
    },
    leasesOf(sessionId: string): string[] {
      return readLeases(db, clock.now())
        .filter((lease) => lease.holder.sessionId === sessionId)
        .map((lease) => lease.pattern)
        .sort()
    },
    async [Symbol.asyncDispose]() {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

function presence(db: Db, session: WorkSession, state: 'online' | 'idle' | 'offline', now: number): void {
  recordPresence(db, { ...session, worktree: null, branch: null, machine: 'm_test', state }, now)
}

test('each kept step is done exactly once, however many drainers look at once', async () => {
  await using w = await world()
  const files = Array.from({ length: 12 }, (_, i) => `src/f${i}.ts`)
  for (const file of files) w.keep(w.edit(file))
  const ending: WorkSession = { ...claude, sessionId: 'c1a0de00-0000-4000-8000-0000000000e2' }
  await new LocalLeaseArbiter(w.db, w.clock).claim({
    actor: ending,
    patterns: ['docs/**'],
    reason: 'docs',
    ttlMs: null,
  })
  w.keep({ kind: 'release' }, w.clock.now(), ending)
  w.keep({ kind: 'presence', state: 'online', worktree: w.root })
  // Two drainers on their own connections (a daemon and a hook), started together.
  const second = openDatabaseFile(w.database)
  try {
    const reports = await Promise.all([
      drainHookWork(w.options({ pid: 1 })),
      drainHookWork(w.options({ pid: 2, db: second })),
    ])
    assert.equal(
      reports.reduce((sum, report) => sum + report.done, 0),
      files.length + 2,
    )
  } finally {
    second.close()
  }
  assert.deepEqual(w.leasesOf(claude.sessionId), [...files].sort())
  assert.deepEqual(w.leasesOf(ending.sessionId), [])
  const ended = readLeaseLog(w.db, 0, ['session-ended'], 100)
  assert.equal(ended.length, 1, 'released once')
  assert.equal(readSessionPresence(w.db, 'claude', claude.sessionId)?.state, 'online')
  assert.deepEqual(readdirSync(w.journal), [], 'nothing left behind')
  // A drain with nothing to do does nothing.
  assert.deepEqual(await drainHookWork(w.options()), { done: 0, dropped: 0, conflicts: 0, waiting: 0 })
})

test('presence kept before a later one landed is dropped; one with nothing later is recorded at its own time', async () => {
  await using w = await world()
  const other: WorkSession = { ...claude, sessionId: 'c1a0de00-0000-4000-8000-0000000000b2' }
  w.keep({ kind: 'presence', state: 'online', worktree: w.root }, start)
  w.keep({ kind: 'presence', state: 'online', worktree: w.root }, start, other)
  // The first session's next hook recorded it idle afterwards; the second's did nothing.
  presence(w.db, claude, 'idle', start + 5000)
  w.clock.advance(60_000)
  const report = await drainHookWork(w.options())
  assert.deepEqual(report, { done: 1, dropped: 1, conflicts: 0, waiting: 0 })
  assert.equal(readSessionPresence(w.db, 'claude', claude.sessionId)?.state, 'idle', 'the later state stands')
  const recorded = readSessionPresence(w.db, 'claude', other.sessionId)
  assert.equal(recorded?.state, 'online')
  assert.equal(recorded?.updatedAt, start, "recorded as of its hook's time")
})

test("an auto-lease is dropped once it would have expired, once its session ended, or when the session's end is kept after it", async () => {
  await using w = await world()
  const ended: WorkSession = { ...claude, sessionId: 'c1a0de00-0000-4000-8000-0000000000e1' }
  const releasing: WorkSession = { ...claude, sessionId: 'c1a0de00-0000-4000-8000-0000000000e3' }
  w.keep(w.edit('src/old.ts'), start - 11 * 60_000)
  w.keep(w.edit('src/ended.ts'), start, ended)
  presence(w.db, ended, 'offline', start + 1)
  w.keep(w.edit('src/released.ts'), start, releasing)
  w.keep({ kind: 'release' }, start + 2, releasing)
  w.keep(w.edit('src/kept.ts'), start)
  const report = await drainHookWork(w.options())
  assert.deepEqual(report, { done: 2, dropped: 3, conflicts: 0, waiting: 0 })
  assert.deepEqual(w.leasesOf(claude.sessionId), ['src/kept.ts'])
  assert.deepEqual(w.leasesOf(ended.sessionId), [])
  assert.deepEqual(w.leasesOf(releasing.sessionId), [])
})

test("an auto-lease recorded late that meets someone else's claim leaves the claim, and its session a notice", async () => {
  await using w = await world()
  w.keep(w.edit('src/parser.ts'), start)
  const bob = { human: 'bob@x.dev', vendor: null, sessionId: null }
  w.clock.advance(1000)
  await new LocalLeaseArbiter(w.db, w.clock).claim({
    actor: bob,
    patterns: ['src/parser.ts'],
    reason: 'parser rewrite',
    ttlMs: null,
  })
  const report = await drainHookWork(w.options())
  assert.deepEqual(report, { done: 0, dropped: 0, conflicts: 1, waiting: 0 })
  assert.deepEqual(w.leasesOf(claude.sessionId), [], 'no lease over the claim')
  assert.deepEqual(
    readLeases(w.db, w.clock.now()).map((lease) => [lease.pattern, lease.holder.human]),
    [['src/parser.ts', 'bob@x.dev']],
  )
  const entries = journalEntries(w.journal)
  assert.equal(
    claimSessionMail({
      dir: w.journal,
      entries,
      session: { ...claude, sessionId: 'other' },
      pid: 9,
      withBrief: true,
    }),
    null,
    'another session is not told',
  )
  const mail = claimSessionMail({ dir: w.journal, entries, session: claude, pid: 9, withBrief: true })
  assert.equal(mail?.notices.length, 1)
  assert.match(
    mail?.notices[0] ?? '',
    /^sangam: your edit of src\/parser\.ts at 10:00:00 UTC went through before its lease check finished \(store busy\)\. Checked afterwards: src\/parser\.ts is leased to bob@x\.dev .*"parser rewrite"/,
  )
  assert.equal(mail?.briefOwed, false)
  mail?.settle(false, false)
  assert.equal(journalEntries(w.journal).length, 1, 'an answer not delivered leaves the notice for the next')
  const again = claimSessionMail({
    dir: w.journal,
    entries: journalEntries(w.journal),
    session: claude,
    pid: 9,
    withBrief: false,
  })
  again?.settle(true, false)
  assert.deepEqual(readdirSync(w.journal), [], 'delivered once')
})

test('a step that fails again waits with a pause, which a nudged drain skips; a hook stops at the first failure', async () => {
  await using w = await world()
  w.keep(w.edit('src/a.ts'))
  w.keep(w.edit('src/b.ts'))
  const holder = openDatabaseFile(w.database)
  holder.exec('BEGIN IMMEDIATE')
  try {
    const hook = await drainHookWork(w.options({ timeoutMs: 20, stopAtFailure: true }))
    assert.deepEqual(hook, { done: 0, dropped: 0, conflicts: 0, waiting: 2 })
  } finally {
    holder.exec('ROLLBACK')
    holder.close()
  }
  const paused = await drainHookWork(w.options())
  assert.deepEqual(paused, { done: 1, dropped: 0, conflicts: 0, waiting: 1 }, 'the failed one pauses')
  const nudged = await drainHookWork(w.options({ ignorePauses: true }))
  assert.deepEqual(nudged, { done: 1, dropped: 0, conflicts: 0, waiting: 0 })
  assert.deepEqual(w.leasesOf(claude.sessionId), ['src/a.ts', 'src/b.ts'])
})

test('a claim left by a drainer that is gone is put back and done; a live one is left alone', async () => {
  await using w = await world()
  const dead = w.keep(w.edit('src/a.ts'))
  const live = w.keep(w.edit('src/b.ts'))
  renameSync(join(w.journal, dead), join(w.journal, `${dead}.claimed-111`))
  renameSync(join(w.journal, live), join(w.journal, `${live}.claimed-222`))
  writeFileSync(join(w.journal, 'stray.txt'), 'not ours')
  const report = await drainHookWork(w.options({ isAlive: (pid) => pid === 222 }))
  assert.deepEqual(report, { done: 1, dropped: 0, conflicts: 0, waiting: 0 })
  assert.deepEqual(w.leasesOf(claude.sessionId), ['src/a.ts'])
  assert.deepEqual(readdirSync(w.journal).sort(), ['stray.txt', `${live}.claimed-222`])
})

test('an owed brief waits for its session, and is dropped once the session ended', async () => {
  await using w = await world()
  w.keep({ kind: 'brief', cwd: w.root }, start)
  assert.deepEqual(await drainHookWork(w.options()), { done: 0, dropped: 0, conflicts: 0, waiting: 1 })
  presence(w.db, claude, 'offline', start + 10)
  assert.deepEqual(await drainHookWork(w.options()), { done: 0, dropped: 1, conflicts: 0, waiting: 0 })
  assert.deepEqual(readdirSync(w.journal), [])
})
