import { loadMachineId } from '../../config/machine-id.ts'
import { baseChanges } from '../../git/base-changes.ts'
import { findMainBranch } from '../../git/branch.ts'
import { gitOutputOrNull } from '../../git/git.ts'
import { workingStates } from '../../git/working-state.ts'
import { machineNames } from '../../identity/services/machine-names.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { readLanes } from '../../lanes/store/lane-table.ts'
import { matchLeasePath } from '../../leases/services/matcher.ts'
import { readWorktreeStates } from '../../room/store/worktree-state-table.ts'
import { isSangamError } from '../../shared/sangam-error.ts'
import type { ClaimForecast } from '../protocol/claim-view.ts'

export type { ClaimForecast } from '../protocol/claim-view.ts'

const maxPathsShown = 20

/**
 * This machine's other worktrees are read live (their working state over HEAD against the merge
 * base with main: the picture `ready` computes, without the merges); other machines' from the
 * worktree states the room shares (`room.worktree`), as fresh as their daemons published them. The
 * claimer's own worktree is left out. A worktree git cannot read (gone, no shared history) is
 * skipped: the forecast is advice and never stops a claim.
 */
export async function forecastClaim(
  project: ProjectContext,
  patterns: readonly string[],
  ownWorktree: string,
): Promise<ClaimForecast[]> {
  const covered = (paths: readonly string[]) =>
    paths.filter((path) => patterns.some((pattern) => matchLeasePath(pattern, path)))
  const main = findMainBranch(project.repo.root)
  const lanes = readLanes(project.db)
  const laneAt = (path: string) => lanes.find((lane) => lane.worktree === path)?.name ?? null
  const local = project.repo.worktrees.filter((path) => path !== ownWorktree)
  const forecasts: ClaimForecast[] = []
  if (main !== null) {
    const heads = local.flatMap((path) => {
      const head = gitOutputOrNull(['rev-parse', '--verify', '-q', 'HEAD'], path)
      return head === null ? [] : [{ path, head }]
    })
    const states = await readable(() => workingStates(project.repo.root, heads, 4))
    for (const [index, state] of (states ?? []).entries()) {
      const at = heads[index]
      if (state === null || state === undefined || at === undefined) continue
      const changes = await readable(() => baseChanges(at.path, main.name, at.head, state.commit, 0))
      const paths = covered(changes?.changes.map((change) => change.path) ?? [])
      if (paths.length === 0) continue
      forecasts.push({
        worktree: at.path,
        machine: null,
        machineName: null,
        branch: gitOutputOrNull(['symbolic-ref', '-q', '--short', 'HEAD'], at.path),
        lane: laneAt(at.path),
        paths: paths.slice(0, maxPathsShown),
        pathCount: paths.length,
      })
    }
  }
  const machine = loadMachineId(project.env.sangamHome)
  const names = machineNames(project.db, null)
  for (const state of readWorktreeStates(project.db)) {
    if (state.machine === machine || state.status !== 'present') continue
    const paths = covered(state.changes.map((change) => change.path))
    if (paths.length === 0) continue
    forecasts.push({
      worktree: state.path,
      machine: state.machine,
      machineName: names.label(state.machine),
      branch: state.branch,
      lane: null,
      paths: paths.slice(0, maxPathsShown),
      pathCount: paths.length,
    })
  }
  return forecasts
}

/** The words `claim` and `ctx_claim` add after their outcome; empty when no one else is there. */
export function describeForecast(forecasts: readonly ClaimForecast[]): string {
  if (forecasts.length === 0) return ''
  const lines = forecasts.map((forecast) => {
    const who = forecast.lane !== null ? `lane ${forecast.lane}` : (forecast.branch ?? 'a detached worktree')
    const where =
      forecast.machine === null
        ? forecast.worktree
        : `${forecast.worktree} on ${forecast.machineName ?? forecast.machine}`
    const more =
      forecast.pathCount > forecast.paths.length
        ? ` and ${forecast.pathCount - forecast.paths.length} more`
        : ''
    return `  ${who} (${where}): ${forecast.paths.join(', ')}${more}`
  })
  return ['Already changed elsewhere (committed or not), so expect a merge with it:', ...lines].join('\n')
}

async function readable<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (error) {
    if (isSangamError(error) && error.code === 'GIT_FAILED') return null
    throw error
  }
}
