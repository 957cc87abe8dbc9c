import { existsSync } from 'node:fs'
import { isLockStale } from '../core/sync-ladder.ts'
import { endLaneTask, type LaneRow, readLane, updateLane } from '../store/lane-table.ts'
import { laneRefused } from './lane-refused.ts'
import type { LaneWorld } from './lane-world.ts'
import { saveLaneWork } from './recovery-refs.ts'

export async function takeOver(world: LaneWorld, lane: LaneRow, reason: string) {
  const holder = await world.lock.current()
  if (holder === null || holder.lane === lane.name)
    throw laneRefused(
      'lock-not-held',
      'the integration lock is not held by another lane: there is nothing to take over',
      'run sangam sync without --takeover',
    )
  const now = world.clock.now()
  if (!isLockStale(holder.heartbeatAt, now, world.settings.lockStaleMinutes * 60_000))
    throw laneRefused(
      'lock-not-stale',
      `lane ${holder.lane} (${holder.owner}) showed a sign of life ${Math.round((now - holder.heartbeatAt) / 60_000)} min ago; a lock may be taken over after ${world.settings.lockStaleMinutes} min of silence`,
      `ask ${holder.owner} to finish with sangam sync in lane ${holder.lane}, or wait`,
    )
  const owner = readLane(world.db, holder.lane)
  const backupRefs =
    owner !== null && existsSync(owner.worktree)
      ? await saveLaneWork(owner.worktree, { kind: 'takeovers', lane: owner.name, reason: 'lock', now })
      : []
  if (owner !== null && owner.task !== null) endLaneTask(world.db, owner.task, 'restored', now)
  if (owner !== null && owner.state !== 'integrating')
    updateLane(world.db, owner.name, { state: 'idle', task: null, journal: null, pid: null }, now)
  await world.lock.takeOver({ lane: lane.name, owner: world.human, reason })
  world.record('lock.taken-over', lane.name, {
    from: holder.lane,
    fromOwner: holder.owner,
    task: holder.task,
    reason,
    by: world.human,
    backupRefs,
  })
  // The taker holds the lock only for its own sync: free it again unless that sync keeps it.
  const mine = await world.lock.current()
  if (mine !== null && mine.lane === lane.name) await world.lock.release(mine)
  return { from: holder.lane, reason, backupRefs }
}
