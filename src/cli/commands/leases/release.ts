import { releasedPatterns } from '../../../leases/protocol/release-input.ts'
import { resolveActor } from '../../../leases/services/actor.ts'
import { describeReleaseOutcome, releaseLease } from '../../../leases/services/release-lease.ts'
import { projectLeaseArbiter } from '../../../project/services/lease-arbiter.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import type { releaseInput } from './inputs.ts'

export const run: CommandRun<typeof releaseInput> = async (ctx, { patterns: args }, options) => {
  const force = options.force
  const reason = options.reason?.trim() ?? ''
  if (force && reason === '')
    throw new SangamError(ErrorCode.Usage, 'release --force needs --reason "…"; it is shown to the team')
  if (force && args.length === 0)
    throw new SangamError(ErrorCode.Usage, 'release --force needs the patterns to release')
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const outcome = await releaseLease(project, projectLeaseArbiter, {
      actor: resolveActor(ctx.env, project.human),
      patterns: releasedPatterns(args),
      cwd: ctx.cwd,
      forceReason: force ? reason : null,
    })
    return { json: outcome, text: describeReleaseOutcome(outcome) }
  } finally {
    project.close()
  }
}
