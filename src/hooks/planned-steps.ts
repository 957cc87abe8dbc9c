import type { Environment } from '../config/environment.ts'
import type { WorkStep } from '../hook-work/services/kept-work.ts'
import type { VendorName } from '../shared/vendor-names.ts'
import type { LocatedProject } from './project-locator.ts'

export interface PlanInput {
  readonly host: VendorName
  readonly eventName: string
  /** PreToolUse: the files the tool call writes, as the tool named them. */
  readonly targets: readonly string[]
  readonly cwd: string
  readonly project: LocatedProject
  readonly env: Environment
  /** Stop: the turn already continues a hand-over, so nothing is recorded for its pane. */
  readonly stopHookActive: boolean
}

/**
 * The work each agent hook event owes, the steps a hook that gives up keeps for afterwards (the
 * Stop hand-over and a prompt's room messages need none: their cursors move only once an answer
 * carried them, so what was not carried is simply carried by the next one). Planned before any of
 * it starts, so a budget that runs out at any point finds every step still open.
 */
export function plannedSteps(input: PlanInput): WorkStep[] {
  const worktree = input.project.layout.worktreeRoot
  switch (input.eventName) {
    case 'PreToolUse':
      return input.targets.length === 0
        ? []
        : [{ kind: 'auto-lease', files: input.targets, cwd: input.cwd, worktrees: input.project.worktrees }]
    case 'SessionStart': {
      const { codexEndpoint, codexLauncherPid } = input.env
      const codex: WorkStep[] =
        input.host === 'codex' && codexEndpoint !== undefined && codexLauncherPid !== undefined
          ? [{ kind: 'codex-endpoint', endpoint: codexEndpoint, launcherPid: codexLauncherPid }]
          : []
      return [{ kind: 'presence', state: 'online', worktree }, ...codex, { kind: 'brief', cwd: input.cwd }]
    }
    case 'UserPromptSubmit':
      return [{ kind: 'presence', state: 'online', worktree }]
    case 'Stop': {
      const pane = input.env.vendorCliEnv.TMUX_PANE
      const panes: WorkStep[] =
        !input.stopHookActive && pane !== undefined && pane !== '' ? [{ kind: 'pane', pane }] : []
      return [...panes, { kind: 'presence', state: 'idle', worktree }]
    }
    case 'SessionEnd':
      return [{ kind: 'presence', state: 'offline', worktree }, { kind: 'release' }]
    default:
      return []
  }
}
