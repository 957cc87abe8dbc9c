import { describeActor } from '../../../core/leases/actor.ts'
import { describeLease } from '../../../core/leases/describe.ts'
import { resolveActor } from '../../../services/leases/actor.ts'
import { resolvePatternArgument } from '../../../services/leases/path.ts'
import { openProject } from '../../../services/project-context.ts'
import { chooseLeaseArbiter } from '../../../services/sync/arbiter-choice.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { projectDir } from '../../../store/database.ts'
import type { CommandRun } from '../../command.ts'
import type { releaseInput } from '../../registry.ts'

export const run: CommandRun<typeof releaseInput> = async (ctx, { patterns: args }, options) => {
  const force = options.force
  const reason = options.reason?.trim() ?? ''
  if (force && reason === '')
    throw new SangamError(ErrorCode.Usage, 'release --force needs --reason "…"; it is shown to the team')
  if (force && args.length === 0)
    throw new SangamError(ErrorCode.Usage, 'release --force needs the patterns to release')
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const patterns =
      args.length === 0
        ? null
        : args.map((arg) => resolvePatternArgument(arg, ctx.cwd, project.repo.worktrees))
    const actor = resolveActor(ctx.env, project.human)
    const arbiter = chooseLeaseArbiter(
      project.db,
      projectDir(ctx.env.sangamHome, project.repo.projectId),
      ctx.clock,
    )
    const outcome = await arbiter.release({ actor, patterns, forceReason: force ? reason : null })
    const now = ctx.clock.now()
    if (!outcome.ok && outcome.problem === 'not-found') {
      throw new SangamError(ErrorCode.NotFound, `no live lease on ${outcome.pattern}; see sangam leases`)
    }
    if (!outcome.ok) {
      throw new SangamError(
        ErrorCode.LeaseConflict,
        `${outcome.pattern} is held by ${describeActor(outcome.lease.holder)}, not by you; only the holder releases it ` +
          `(a human may override with sangam release --force --reason "…"): ${describeLease(outcome.lease, now)}`,
        { lease: outcome.lease },
      )
    }
    const lines = outcome.released.map(
      (lease) =>
        `${outcome.forced.includes(lease) ? 'force-released' : 'released'} ${describeLease(lease, now)}`,
    )
    return {
      json: { released: outcome.released, forced: outcome.forced, actor },
      text: lines.length === 0 ? 'you hold no leases' : lines.join('\n'),
    }
  } finally {
    project.close()
  }
}
