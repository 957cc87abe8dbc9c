import { describeActor } from '../../../core/leases/actor.ts'
import { describeConflicts, describeLease } from '../../../core/leases/describe.ts'
import { resolveActor } from '../../../services/leases/actor.ts'
import { resolvePatternArgument } from '../../../services/leases/path.ts'
import { openProject } from '../../../services/project-context.ts'
import { chooseLeaseArbiter } from '../../../services/sync/arbiter-choice.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { projectDir } from '../../../store/database.ts'
import type { CommandRun } from '../../command.ts'
import { exitCodes } from '../../exit-codes.ts'
import type { claimInput } from '../../registry.ts'

export const run: CommandRun<typeof claimInput> = async (ctx, { patterns: args }, options) => {
  const reason = options.reason?.trim() ?? ''
  if (reason === '')
    throw new SangamError(ErrorCode.Usage, 'claim needs --reason "…": say why, for whoever is kept out')
  const ttlMs = options.ttl ?? null
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const patterns = args.map((arg) => resolvePatternArgument(arg, ctx.cwd, project.repo.worktrees))
    const actor = resolveActor(ctx.env, project.human)
    const arbiter = chooseLeaseArbiter(
      project.db,
      projectDir(ctx.env.sangamHome, project.repo.projectId),
      ctx.clock,
    )
    const result = await arbiter.claim({ actor, patterns, reason, ttlMs })
    const now = ctx.clock.now()
    if (!result.granted) {
      const message = `not granted:\n${describeConflicts(result.conflicts, now)}`
      return {
        json: { ...result, code: ErrorCode.LeaseConflict, message, actor },
        text: message,
        exitCode: exitCodes[ErrorCode.LeaseConflict],
      }
    }
    const lines = result.leases.map(
      (lease) => `${lease.renewed ? 'renewed' : 'claimed'} ${describeLease(lease, now)}`,
    )
    for (const lease of result.overrode) {
      lines.push(`note: went over ${describeActor(lease.holder)}'s auto-lease on ${lease.pattern}`)
    }
    return { json: { ...result, actor }, text: lines.join('\n') }
  } finally {
    project.close()
  }
}
