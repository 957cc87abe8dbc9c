import assert from 'node:assert/strict'
import { mkdirSync, realpathSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { git, tmpDir, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { isLockStale } from '../core/sync-ladder.ts'
import { insertLane, updateLane } from '../store/lane-table.ts'
import { laneTaskFolder } from './lane-world.ts'
import { keepLaneLock } from './lock-keeper.ts'
import { StoreIntegrationLock } from './store-integration-lock.ts'

const minute = 60_000
const staleMs = 30 * minute

/** A real repository with lane `a` (its own worktree) holding the lock for task t1, on a fake clock. */
async function world(options: { pane: string | null; state?: 'task' | 'idle' }) {
  const data = tmpDir()
  const repo = tmpGitRepo()
  repo.write('a.txt', 'base\n')
  repo.commit('base')
  const worktree = join(realpathSync(join(repo.path, '..')), 'lane-a')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane/a', worktree)
  const db = openDatabaseFile(join(data.path, 'sangam.db'))
  const clock = new ManualClock(Date.parse('2026-12-02T04:00:00Z'))
  insertLane(
    db,
    {
      name: 'a',
      branch: 'lane/a',
      worktree,
      owner: 'asha@example.com',
      agent: 'claude',
      pane: options.pane,
      base: null,
    },
    clock.now(),
  )
  updateLane(db, 'a', { state: options.state ?? 'task', task: 't1' }, clock.now())
  const lock = new StoreIntegrationLock(db, clock)
  assert.equal((await lock.acquire({ lane: 'a', owner: 'asha@example.com', task: 't1' })).granted, true)
  // Nothing in the worktree has changed since long before the fake clock's now.
  const old = new Date(clock.now() - 120 * minute)
  const laneGitDir = join(realpathSync(join(repo.path, '.git')), 'worktrees', 'lane-a')
  utimesSync(join(laneGitDir, 'logs', 'HEAD'), old, old)
  // As in a real lane, its .sangam/ (task files) is git-excluded.
  writeFileSync(join(realpathSync(join(repo.path, '.git')), 'info', 'exclude'), '/.sangam/\n')
  const alive = new Set<string>()
  const keep = () =>
    keepLaneLock({ db, lock, clock, staleMs, paneAlive: (pane) => alive.has(pane), isAlive: () => false })
  return {
    worktree,
    clock,
    lock,
    alive,
    keep,
    async [Symbol.asyncDispose]() {
      db.close()
      await repo[Symbol.asyncDispose]()
      await data[Symbol.asyncDispose]()
    },
  }
}

test('the daemon renews the heartbeat of a lane whose task is active and whose agent pane lives', async () => {
  await using w = await world({ pane: '%7' })
  w.alive.add('%7')
  w.clock.advance(5 * minute)
  assert.deepEqual(await w.keep(), { lane: 'a', renewed: false, why: 'fresh' })
  // Hour after hour of a long semantic task, the lock never goes stale.
  for (let hour = 0; hour < 3; hour++) {
    w.clock.advance(20 * minute)
    assert.equal((await w.keep()).renewed, true)
    const holder = await w.lock.current()
    assert.equal(holder?.heartbeatAt, w.clock.now())
    assert.equal(holder?.task, 't1')
  }
})

test('a lane whose agent is gone keeps its lock only while its worktree changes; then it goes stale', async () => {
  await using w = await world({ pane: '%7' })
  w.clock.advance(20 * minute)
  // An edit the agent made (a file's mtime on the fake clock).
  const edited = join(w.worktree, 'notes.txt')
  writeFileSync(edited, 'work\n')
  utimesSync(edited, new Date(w.clock.now() - minute), new Date(w.clock.now() - minute))
  assert.deepEqual(await w.keep(), { lane: 'a', renewed: true, why: 'worktree changed' })
  // The validation report in the git-excluded task folder counts as a change too.
  w.clock.advance(25 * minute)
  const folder = laneTaskFolder(w.worktree)
  mkdirSync(folder, { recursive: true })
  const report = join(folder, 't1.validation.md')
  writeFileSync(report, 'checked\n')
  utimesSync(edited, new Date(w.clock.now() - 40 * minute), new Date(w.clock.now() - 40 * minute))
  utimesSync(report, new Date(w.clock.now()), new Date(w.clock.now()))
  assert.equal((await w.keep()).renewed, true)
  // Then silence: no renewal, and after the stale window a human may take it over.
  utimesSync(report, new Date(w.clock.now() - 40 * minute), new Date(w.clock.now() - 40 * minute))
  utimesSync(folder, new Date(w.clock.now() - 40 * minute), new Date(w.clock.now() - 40 * minute))
  const renewedAt = w.clock.now()
  w.clock.advance(31 * minute)
  assert.deepEqual(await w.keep(), { lane: 'a', renewed: false, why: 'no sign of life' })
  const holder = await w.lock.current()
  assert.equal(holder?.heartbeatAt, renewedAt)
  assert.equal(isLockStale(holder?.heartbeatAt ?? 0, w.clock.now(), staleMs), true)
})

test('a lane that is not at work on its lock is never kept alive by the daemon', async () => {
  await using w = await world({ pane: '%7', state: 'idle' })
  w.alive.add('%7')
  w.clock.advance(40 * minute)
  assert.deepEqual(await w.keep(), { lane: 'a', renewed: false, why: 'lane is idle' })
})
