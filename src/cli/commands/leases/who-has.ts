import { describeLease } from '../../../core/leases/describe.ts'
import { isLiteralPattern } from '../../../core/leases/pattern.ts'
import { repositoryPaths, resolvePatternArgument } from '../../../services/leases/path.ts'
import { leasesCovering } from '../../../services/leases/queries.ts'
import { openProject } from '../../../services/project-context.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { whoHasInput } from '../../registry.ts'

export const run: CommandRun<typeof whoHasInput> = async (ctx, { path: arg }) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, { busyBudgetMs: readBusyBudgetMs })
  try {
    const now = ctx.clock.now()
    const worktrees = project.repo.worktrees
    if (!isLiteralPattern(arg)) {
      const pattern = resolvePatternArgument(arg, ctx.cwd, worktrees)
      const leases = leasesCovering(project.db, { pattern }, now)
      return { json: { path: null, pattern, leases }, text: listing(pattern, leases, now) }
    }
    const paths = repositoryPaths(arg, ctx.cwd, worktrees)
    const path = paths[0] ?? null
    if (path === null) {
      return {
        json: { path, pattern: null, leases: [] },
        text: `${arg} is outside this project: no lease applies`,
      }
    }
    const leases = leasesCovering(project.db, { paths }, now)
    return { json: { path, pattern: null, leases }, text: listing(path, leases, now) }
  } finally {
    project.close()
  }
}

function listing(
  target: string,
  leases: readonly Parameters<typeof describeLease>[0][],
  now: number,
): string {
  if (leases.length === 0) return `nobody holds ${target}`
  return leases.map((lease) => describeLease(lease, now)).join('\n')
}
