import { z } from 'zod'
import { actorSchema } from '../../identity/protocol/actor.ts'
import { autoLeaseRungSchema, claimRequestSchema, leaseSchema } from '../../leases/protocol/lease.ts'

/**
 * Leases through the team server: the shapes of `protocol/lease.ts`, arbitrated by the server
 * with the same pure rule (`leases/core/arbitration.ts`) the local arbiter runs. A conflict or a
 * refused release is an answer (HTTP 200 with the decision), not an error.
 */

/**
 * `POST /v1/projects/:projectId/leases/claim`. `autoLease` is the project's auto-lease rung as the
 * claimant's settings have it: the server keeps no settings of its own.
 */
export const serverClaimRequestSchema = claimRequestSchema.extend({
  autoLease: autoLeaseRungSchema,
})
export type ServerClaimRequest = z.infer<typeof serverClaimRequestSchema>

/** `POST /v1/projects/:projectId/leases/release`. `patterns: null` releases all the actor holds. */
export const serverReleaseRequestSchema = z.object({
  actor: actorSchema,
  patterns: z.array(z.string().min(1)).min(1).nullable(),
  /** Releases another actor's lease on a named pattern; recorded in the log with this reason. */
  forceReason: z.string().min(1).nullable(),
})
export type ServerReleaseRequest = z.infer<typeof serverReleaseRequestSchema>

export const releaseResultSchema = z.union([
  z.object({
    ok: z.literal(true),
    released: z.array(leaseSchema),
    /** The released leases that were another actor's (a forced release). */
    forced: z.array(leaseSchema),
  }),
  z.object({
    ok: z.literal(false),
    problem: z.enum(['not-found', 'held-by-other']),
    pattern: z.string(),
    /** For `held-by-other`: the lease in the way. */
    lease: leaseSchema.nullable(),
  }),
])
export type ReleaseResult = z.infer<typeof releaseResultSchema>

/** `GET /v1/projects/:projectId/leases`: the live leases and the last fencing token issued. */
export const leasesResponseSchema = z.object({
  leases: z.array(leaseSchema),
  fencingToken: z.number().int().nonnegative(),
})
export type LeasesResponse = z.infer<typeof leasesResponseSchema>
