import type { ProjectContext } from '../../identity/services/project-context.ts'
import { describeLease } from '../core/describe.ts'
import { isLiteralPattern } from '../core/pattern.ts'
import type { WhoHasOutcome } from '../protocol/lease-view.ts'
import { repositoryPaths, resolvePatternArgument } from './path.ts'
import { leasesCovering } from './queries.ts'

/**
 * Who holds a file, or anything overlapping a glob: the one use case behind `sangam who-has` and
 * `ctx_who_has`. Read from the replica (it decides nothing). A file outside the project is
 * answered with `path: null` and no leases, since no lease can apply to it.
 */
export type { WhoHasOutcome } from '../protocol/lease-view.ts'

export function whoHas(project: ProjectContext, raw: string, cwd: string): WhoHasOutcome {
  const now = project.clock.now()
  const worktrees = project.repo.worktrees
  if (raw.trim() === '' || !isLiteralPattern(raw)) {
    // An empty argument is refused here, with the pattern rules' words (not "outside the project").
    const pattern = resolvePatternArgument(raw, cwd, worktrees)
    return { path: null, pattern, leases: leasesCovering(project.db, { pattern }, now) }
  }
  const paths = repositoryPaths(raw, cwd, worktrees)
  const path = paths[0] ?? null
  if (path === null) return { path, pattern: null, leases: [] }
  return { path, pattern: null, leases: leasesCovering(project.db, { paths }, now) }
}

/** The words every caller shows; `raw` is what was asked, as typed. */
export function describeWhoHas(outcome: WhoHasOutcome, raw: string, now: number): string {
  const target = outcome.path ?? outcome.pattern
  if (target === null) return `${raw} is outside this project: no lease applies`
  if (outcome.leases.length === 0) return `nobody holds ${target}`
  return outcome.leases.map((lease) => describeLease(lease, now)).join('\n')
}
