import { resolveActor } from '../../../leases/services/actor.ts'
import { claimLease, describeClaimOutcome } from '../../../leases/services/claim-lease.ts'
import { resolvePatternArgument } from '../../../leases/services/path.ts'
import { describeForecast, forecastClaim } from '../../../project/services/claim-forecast.ts'
import { projectLeaseArbiter } from '../../../project/services/lease-arbiter.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import { exitCodes } from '../../exit-codes.ts'
import type { claimInput } from './inputs.ts'

export const run: CommandRun<typeof claimInput> = async (ctx, { patterns: args }, options) => {
  const reason = options.reason?.trim() ?? ''
  if (reason === '')
    throw new SangamError(ErrorCode.Usage, 'claim needs --reason "…": say why, for whoever is kept out')
  const ttlMs = options.ttl ?? null
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const actor = resolveActor(ctx.env, project.human)
    const outcome = await claimLease(project, projectLeaseArbiter, {
      actor,
      patterns: args,
      cwd: ctx.cwd,
      reason,
      ttlMs,
    })
    const patterns = args.map((raw) => resolvePatternArgument(raw, ctx.cwd, project.repo.worktrees))
    const forecasts = await forecastClaim(project, patterns, project.repo.root)
    const { forecasts: forecast, states } = forecasts
    const text = [describeClaimOutcome(outcome, ctx.clock.now()), describeForecast(forecasts)]
      .filter((part) => part !== '')
      .join('\n')
    if (outcome.granted) return { json: { ...outcome, forecast, states }, text }
    return {
      json: { ...outcome, forecast, states, code: ErrorCode.LeaseConflict, message: text },
      text,
      exitCode: exitCodes[ErrorCode.LeaseConflict],
    }
  } finally {
    project.close()
  }
}
