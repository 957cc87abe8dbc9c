import { claudeLiveSessions } from '../../agents/claude/services/claude-live-sessions.ts'
import { loadMachineId } from '../../config/machine-id.ts'
import { loadMachineName } from '../../identity/services/machine-name-file.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { projectDaemonRound } from './daemon-round.ts'
import type { TargetsInput } from './targets.ts'

/**
 * What `targets`, `alerts` and their MCP tools read the room with, for an opened project: this
 * machine (id and name), its human, its worktrees, Claude Code's own list of live sessions (asked
 * only if needed), and the running daemon's latest round when it is fresh (its worktree states
 * are then read, not recomputed).
 */
export function projectTargetsInput(project: ProjectContext): TargetsInput {
  const now = project.clock.now()
  return {
    machine: loadMachineId(project.env.sangamHome),
    machineName: loadMachineName(project.env.sangamHome),
    human: project.human,
    worktrees: project.repo.worktrees,
    liveClaudeSessions: () => claudeLiveSessions(project.env.vendorCliEnv),
    now,
    daemonRoundAt: projectDaemonRound(project)?.at ?? null,
  }
}
