import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { worktreeChangedAt } from '../../git/worktree-changed-at.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/db.ts'
import { renewalDue, shouldRenewLock } from '../core/lock-renewal.ts'
import { readLane } from '../store/lane-table.ts'
import type { IntegrationLock } from './integration-lock.ts'
import { laneTaskFolder } from './lane-world.ts'

export interface LockKeeperInput {
  readonly db: Db
  /** The lock as every lane command sees it (this machine's store, or the team server's). */
  readonly lock: IntegrationLock
  readonly clock: Clock
  readonly staleMs: number
  readonly paneAlive: (pane: string) => boolean
  readonly isAlive: (pid: number) => boolean
}

/** What one look at the lock did: nothing to keep, kept quiet (and why), or renewed. */
export type LockKept =
  | { readonly lane: null; readonly renewed: false }
  | { readonly lane: string; readonly renewed: boolean; readonly why: string }

/**
 * The daemon's side of the lock's heartbeat (D246): `sync` renews it on every run, but a semantic
 * task can outlast `lanes.lock-stale-minutes` without one. The holder's heartbeat is renewed,
 * through the IntegrationLock seam, while its lane is at work on what the lock is for (its active
 * task, or a publish) and shows life: its agent's tmux pane (the integrating sync's process, for
 * a publish) or a worktree change within the stale window. A lane that shows none is left to go
 * stale, so `sync --takeover` stays possible for an owner who has really gone.
 */
export async function keepLaneLock(input: LockKeeperInput): Promise<LockKept> {
  const holder = await input.lock.current()
  if (holder === null) return { lane: null, renewed: false }
  const now = input.clock.now()
  if (!renewalDue(holder, now, input.staleMs))
    return { lane: holder.lane, renewed: false, why: holder.elsewhere ? 'elsewhere' : 'fresh' }
  const lane = readLane(input.db, holder.lane)
  if (lane === null) return { lane: holder.lane, renewed: false, why: 'no such lane here' }
  const integrating = lane.state === 'integrating'
  const working = integrating || (lane.state === 'task' && lane.task !== null && lane.task === holder.task)
  if (!working) return { lane: holder.lane, renewed: false, why: `lane is ${lane.state}` }
  const agentAlive = integrating
    ? lane.pid !== null && input.isAlive(lane.pid)
    : lane.pane !== null && input.paneAlive(lane.pane)
  const changedAt = agentAlive ? null : worktreeChangedAt(lane.worktree, taskFiles(lane.worktree))
  if (!shouldRenewLock(holder, { working, agentAlive, changedAt }, now, input.staleMs))
    return { lane: holder.lane, renewed: false, why: 'no sign of life' }
  const renewed = await input.lock.heartbeat(holder)
  return { lane: holder.lane, renewed, why: agentAlive ? 'agent alive' : 'worktree changed' }
}

/** The task folder and its files (git-excluded, so `git status` never lists them). */
function taskFiles(worktree: string): string[] {
  const folder = laneTaskFolder(worktree)
  try {
    return [folder, ...readdirSync(folder).map((name) => join(folder, name))]
  } catch {
    return []
  }
}

/** Whether tmux still has `pane` (the lane's agent), asked with the environment tmux runs in. */
export function tmuxPaneAlive(env: Readonly<Record<string, string>>): (pane: string) => boolean {
  return (pane) =>
    spawnSync('tmux', ['display-message', '-p', '-t', pane, '#{pane_id}'], { env, stdio: 'ignore' })
      .status === 0
}
