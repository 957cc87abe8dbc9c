import { runningDaemon } from '../../config/daemon-discovery.ts'
import { daemonFile } from '../../config/data-paths.ts'
import { loadMachineId } from '../../config/machine-id.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { Db } from '../../store/db.ts'
import type { WorktreeStatesSeen } from '../protocol/worktree-states-view.ts'
import { readOverlapLook } from '../store/overlap-table.ts'

/**
 * The age past which the daemon's latest round is not read as the worktrees' state: two of its
 * rounds' intervals (`overlapIntervalMs`, 15 s; not imported: overlap-round.ts reads worktrees
 * through ready.ts, which reads this), so one round late (a slow round, a busy machine) still
 * counts, a stuck daemon not.
 */
export const daemonRoundFreshMs = 30_000

/** The running daemon's fresh round: when it read this machine's worktrees, and the machine's id, whose rows it wrote. */
export interface DaemonRound {
  readonly at: number
  readonly machine: string
}

/** The fresh round of the daemon running for `project` on this machine, or null (ask git). */
export function projectDaemonRound(project: ProjectContext): DaemonRound | null {
  const { env, repo, db, clock } = project
  const at = freshDaemonRound(db, daemonFile(env.sangamHome, repo.projectId), clock.now())
  return at === null ? null : { at, machine: loadMachineId(env.sangamHome) }
}

/**
 * When `sangam up`'s latest round read this machine's worktrees (ms epoch), if a daemon runs
 * (its discovery file `daemonFile` names a live process) and that round is at most
 * `daemonRoundFreshMs` old; else null, and the caller asks git (D432).
 */
export function freshDaemonRound(db: Db, daemonFile: string, now: number): number | null {
  if (runningDaemon(daemonFile) === null) return null
  const look = readOverlapLook(db)
  if (look === null || look.by !== 'daemon') return null
  const age = now - look.lookedAt
  return age >= 0 && age <= daemonRoundFreshMs ? look.lookedAt : null
}

export type { WorktreeStatesSeen } from '../protocol/worktree-states-view.ts'

/** What a view says of its states when they came from the daemon's round; null when from git now. */
export function statesLine(states: WorktreeStatesSeen): string | null {
  if (states.source === 'git') return null
  const seconds = Math.round(states.ageMs / 1000)
  return `(this machine's worktrees as sangam up's round read them ${seconds} s ago)`
}
