import { existsSync } from 'node:fs'
import { runGit } from '../../git/git.ts'
import { endLaneTask, type LaneRow, readLanes, readLaneTask, updateLane } from '../store/lane-table.ts'
import { headOf, refCommit, resetHard, resetMixed, unsafeGitState, worktreeOfBranch } from './lane-git.ts'
import type { LaneWorld } from './lane-world.ts'
import { saveLaneWork, snapshotRef } from './recovery-refs.ts'
import { bringWorktreeAlong } from './ref-main-publisher.ts'

/** What the normalisation did to one lane. */
export interface NormalisedLane {
  readonly lane: string
  readonly action: 'finished-publish' | 'restored' | 'task-resumed' | 'task-adopted'
  readonly backupRefs: readonly string[]
}

/**
 * Puts right integrations interrupted by a crash (the seed's restart normalisation), backing each
 * lane's work up under refs/sangam/backups/ first. A lane left integrating by a process that is
 * gone: if main already moved to what it was publishing, the publish is recorded as done; else
 * the lane returns to its active task, or to its own work as it was before the sync (the snapshot
 * restored, a snapshot commit undone). With `startup` (sangam up) an active task is also checked
 * against the lock: a task whose file is gone, or that the lock no longer names, is restored; a
 * lock naming another task of the same lane whose file exists is adopted.
 */
export async function normaliseLanes(
  world: LaneWorld,
  options: { startup: boolean },
): Promise<NormalisedLane[]> {
  const done: NormalisedLane[] = []
  for (const lane of readLanes(world.db)) {
    if (
      lane.state === 'integrating' &&
      (lane.pid === null || !world.isAlive(lane.pid) || (options.startup && lane.pid === world.pid))
    )
      done.push(await undoInterrupted(world, lane))
    else if (options.startup && lane.state === 'task') {
      const fixed = await checkTask(world, lane)
      if (fixed !== null) done.push(fixed)
    }
  }
  await releaseOrphanLock(world)
  for (const entry of done)
    world.record('integration.normalised', entry.lane, { action: entry.action, backupRefs: entry.backupRefs })
  return done
}

async function undoInterrupted(world: LaneWorld, lane: LaneRow): Promise<NormalisedLane> {
  const journal = lane.journal
  const backupRefs = existsSync(lane.worktree)
    ? await saveLaneWork(lane.worktree, {
        kind: 'backups',
        lane: lane.name,
        reason: 'interrupted',
        now: world.clock.now(),
      })
    : []
  const now = world.clock.now()
  const main = refCommit(world.root, world.mainBranch)
  const holder = await world.lock.current()
  const ownsLock = holder !== null && holder.lane === lane.name
  if (journal !== null && journal.publishTo !== null && main === journal.publishTo) {
    const checkedOut = worktreeOfBranch(world.root, world.mainBranch)
    if (checkedOut !== null && journal.publishFrom !== null)
      bringWorktreeAlong(checkedOut, journal.publishFrom, journal.publishTo)
    if (journal.task !== null && journal.kind === 'task-publish')
      endLaneTask(world.db, journal.task, 'published', now)
    if (ownsLock) await world.lock.release(holder)
    updateLane(
      world.db,
      lane.name,
      { state: 'idle', task: null, base: journal.publishTo, journal: null, pid: null },
      now,
    )
    return { lane: lane.name, action: 'finished-publish', backupRefs }
  }
  if (journal !== null && journal.resume === 'task') {
    updateLane(world.db, lane.name, { state: 'task', journal: null, pid: null }, now)
    return { lane: lane.name, action: 'task-resumed', backupRefs }
  }
  if (journal !== null && existsSync(lane.worktree))
    restoreOwnWork(world, lane.worktree, journal.task, journal.headBefore, journal.snapshotted)
  if (journal?.task) endLaneTask(world.db, journal.task, 'restored', now)
  if (ownsLock) await world.lock.release(holder)
  updateLane(world.db, lane.name, { state: 'idle', task: null, journal: null, pid: null }, now)
  return { lane: lane.name, action: 'restored', backupRefs }
}

/**
 * Back to the lane's work as the sync found it: an unfinished merge aborted, the snapshot (when
 * one was taken) checked out again, and a snapshot commit of uncommitted work undone, so that work
 * is uncommitted again.
 */
export function restoreOwnWork(
  world: LaneWorld,
  worktree: string,
  task: string | null,
  headBefore: string,
  snapshotted: boolean,
): void {
  if (unsafeGitState(worktree) === 'MERGE_HEAD') runGit(['merge', '--abort'], worktree)
  const snapshot = task === null ? null : refCommit(world.root, snapshotRef(task))
  if (snapshot !== null && headOf(worktree) !== snapshot) resetHard(worktree, snapshot)
  // Without a snapshot ref, a snapshot commit (if the sync got that far) is HEAD itself.
  if (snapshotted && headOf(worktree) !== headBefore) resetMixed(worktree, headBefore)
}

async function checkTask(world: LaneWorld, lane: LaneRow): Promise<NormalisedLane | null> {
  const holder = await world.lock.current()
  const task = lane.task === null ? null : readLaneTask(world.db, lane.task)
  const now = world.clock.now()
  if (holder !== null && holder.lane === lane.name && holder.task !== null && holder.task !== lane.task) {
    const lockTask = readLaneTask(world.db, holder.task)
    if (lockTask !== null && existsSync(lockTask.file)) {
      const backupRefs = await saveLaneWork(lane.worktree, {
        kind: 'backups',
        lane: lane.name,
        reason: 'adopt-lock-task',
        now,
      })
      updateLane(world.db, lane.name, { task: holder.task }, now)
      return { lane: lane.name, action: 'task-adopted', backupRefs }
    }
  }
  const ownsLock = holder !== null && holder.lane === lane.name && holder.task === lane.task
  if (task !== null && existsSync(task.file) && ownsLock) return null
  const backupRefs = existsSync(lane.worktree)
    ? await saveLaneWork(lane.worktree, { kind: 'backups', lane: lane.name, reason: 'task-reset', now })
    : []
  if (task !== null && existsSync(lane.worktree)) {
    const snapshot = refCommit(world.root, snapshotRef(task.id))
    if (snapshot !== null) resetHard(lane.worktree, snapshot)
  }
  if (task !== null) endLaneTask(world.db, task.id, 'restored', now)
  if (holder !== null && holder.lane === lane.name) await world.lock.release(holder)
  updateLane(world.db, lane.name, { state: 'idle', task: null, journal: null, pid: null }, now)
  return { lane: lane.name, action: 'restored', backupRefs }
}

/** A lock whose lane is gone, or idle with no task and no integration running, is released. */
async function releaseOrphanLock(world: LaneWorld): Promise<void> {
  const holder = await world.lock.current()
  if (holder === null || holder.elsewhere === true) return
  const lane = readLanes(world.db).find((row) => row.name === holder.lane)
  if (lane === undefined || (lane.state === 'idle' && lane.task === null)) {
    await world.lock.release(holder)
    world.record('lock.released', holder.lane, { reason: 'orphaned', token: holder.token })
  }
}
