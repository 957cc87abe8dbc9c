import type { Hono } from 'hono'
import { z } from 'zod'
import { parseTtl } from '../leases/core/expiry.ts'
import { releasedPatterns } from '../leases/protocol/release-input.ts'
import { claimLease, describeClaimOutcome } from '../leases/services/claim-lease.ts'
import { leaseOverview } from '../leases/services/queries.ts'
import { releaseLease } from '../leases/services/release-lease.ts'
import { projectLeaseArbiter } from '../project/services/lease-arbiter.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { errorBody } from './api-error.ts'
import { parseBody } from './request-input.ts'
import type { UiContext } from './ui-context.ts'

const patterns = z.array(z.string().min(1).max(1000)).max(200)

const claimBody = z.strictObject({
  paths: patterns.min(1),
  reason: z.string().max(1000),
  ttl: z.string().max(20).optional(),
})

const releaseBody = z.strictObject({
  paths: patterns.optional(),
  force: z.boolean().optional(),
  reason: z.string().max(1000).optional(),
})

/** Leases: the overview, a claim, a release; the same use cases as `claim` and `release`. */
export function leaseRoutes(app: Hono, ctx: UiContext): void {
  app.get('/api/leases', (c) => c.json(leaseOverview(ctx.project.db, ctx.project.clock.now())))

  app.post('/api/leases', async (c) => {
    const body = await parseBody(c, claimBody)
    if (!body.ok) return body.response
    const { paths, reason, ttl } = body.value
    const outcome = await claimLease(ctx.project, projectLeaseArbiter, {
      actor: ctx.actor,
      patterns: paths,
      cwd: ctx.patternRoot,
      reason,
      ttlMs: ttl === undefined ? null : ttlOf(ttl),
    })
    if (outcome.granted) return c.json(outcome)
    const message = describeClaimOutcome(outcome, ctx.project.clock.now())
    return c.json({ ...outcome, ...errorBody(ErrorCode.LeaseConflict, message) }, 409)
  })

  app.post('/api/leases/release', async (c) => {
    const body = await parseBody(c, releaseBody)
    if (!body.ok) return body.response
    const { paths, force = false } = body.value
    const reason = body.value.reason?.trim() ?? ''
    if (force && reason === '')
      throw new SangamError(
        ErrorCode.InvalidInput,
        'a forced release needs a reason; it is shown to the team',
      )
    if (force && (paths === undefined || paths.length === 0))
      throw new SangamError(ErrorCode.InvalidInput, 'a forced release needs the patterns to release')
    return c.json(
      await releaseLease(ctx.project, projectLeaseArbiter, {
        actor: ctx.actor,
        patterns: releasedPatterns(paths),
        cwd: ctx.patternRoot,
        forceReason: force ? reason : null,
      }),
    )
  })
}

function ttlOf(text: string): number {
  try {
    return parseTtl(text)
  } catch (error) {
    if (!(error instanceof SangamError)) throw error
    throw new SangamError(
      ErrorCode.InvalidInput,
      `ttl takes a duration like 30m, 2h, 1h30m or 1d, from 10s to 7d; got ${JSON.stringify(text)}`,
    )
  }
}
