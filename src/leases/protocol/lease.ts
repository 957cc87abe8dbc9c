import { z } from 'zod'
import { rungs } from '../../room/protocol/rung.ts'

/**
 * Lease wire shapes: what `--json`, the MCP tools and (later) the team server exchange. Times are
 * integer milliseconds since the epoch: every edit compares them, so they stay numbers end to end.
 */

/** The vendors whose sessions can hold leases. */
export const agentVendorSchema = z.enum(['claude', 'codex', 'opencode'])
export type AgentVendor = z.infer<typeof agentVendorSchema>

/**
 * Who holds or asks. A human alone (`vendor` and `sessionId` null) acts from the CLI; an agent
 * session acts for its human. `vendor` without `sessionId` is a session of that vendor that could
 * not say which one it is (Codex does not tell its MCP servers).
 */
export const actorSchema = z.object({
  human: z.string().min(1),
  vendor: agentVendorSchema.nullable(),
  sessionId: z.string().min(1).nullable(),
})
export type Actor = z.infer<typeof actorSchema>

/** `claim`: taken on purpose, with a reason. `auto`: recorded by an edit ("editing"), short and renewed by each edit. */
export const leaseKindSchema = z.enum(['claim', 'auto'])
export type LeaseKind = z.infer<typeof leaseKindSchema>

export const leaseSchema = z.object({
  /** Repository-relative POSIX path or glob, as claimed (case kept; compared case-insensitively). */
  pattern: z.string().min(1),
  holder: actorSchema,
  kind: leaseKindSchema,
  reason: z.string().min(1),
  /** Fencing token: strictly increases with every lease granted in the project; kept on renewal. */
  token: z.number().int().positive(),
  takenAt: z.number().int(),
  renewedAt: z.number().int(),
  expiresAt: z.number().int(),
})
export type Lease = z.infer<typeof leaseSchema>

export const claimRequestSchema = z.object({
  actor: actorSchema,
  /** Normalised patterns; granted all or none. */
  patterns: z.array(z.string().min(1)).min(1),
  reason: z.string().min(1),
  kind: leaseKindSchema,
  ttlMs: z.number().int().positive(),
})
export type ClaimRequest = z.infer<typeof claimRequestSchema>

/** One requested pattern that could not be granted, and the live lease in its way. */
export const leaseConflictSchema = z.object({
  pattern: z.string(),
  lease: leaseSchema,
})
export type LeaseConflict = z.infer<typeof leaseConflictSchema>

export const claimResultSchema = z.discriminatedUnion('granted', [
  z.object({
    granted: z.literal(true),
    /** One lease per requested pattern, in request order; `renewed` when the actor already held it. */
    leases: z.array(leaseSchema.extend({ renewed: z.boolean() })),
    /** Auto-leases of other sessions the claim overrode (the project's auto-lease rung is not `refuse`). */
    overrode: z.array(leaseSchema),
    /**
     * The claiming human's own agents' auto-leases the claim ended (leases/core/arbitration.ts
     * `takesOver`). Absent from servers older than the field, hence the default.
     */
    tookOver: z.array(leaseSchema).default([]),
  }),
  z.object({
    granted: z.literal(false),
    conflicts: z.array(leaseConflictSchema).min(1),
  }),
])
export type ClaimResult = z.infer<typeof claimResultSchema>

/** What happened to a lease, as recorded in the lease log and shown to the team. */
export const leaseLogActionSchema = z.enum([
  'granted',
  'renewed',
  'released',
  'force-released',
  'session-ended',
  'collision',
  'taken-over',
])
export type LeaseLogAction = z.infer<typeof leaseLogActionSchema>

export const leaseLogEntrySchema = z.object({
  at: z.number().int(),
  action: leaseLogActionSchema,
  pattern: z.string(),
  token: z.number().int(),
  holder: actorSchema,
  /** Who did it: the holder, or whoever forced the release or collided with the lease. */
  by: actorSchema,
  /** The lease's reason; for `force-released`, the reason given for forcing; for `taken-over`, the claim's. */
  reason: z.string(),
})
export type LeaseLogEntry = z.infer<typeof leaseLogEntrySchema>

/** How loudly a collision with another session's auto-lease lands (the house-rule rungs). */
export const autoLeaseRungSchema = z.enum(rungs)
export type AutoLeaseRung = z.infer<typeof autoLeaseRungSchema>

export const leaseSettingsSchema = z.object({
  /** `off` records no auto-leases and ignores existing ones. */
  autoLease: autoLeaseRungSchema,
  autoLeaseTtlMs: z.number().int().positive(),
  claimTtlMs: z.number().int().positive(),
  /** Release every lease a session holds when the session ends (the SessionEnd hook). */
  releaseOnSessionEnd: z.boolean(),
})
export type LeaseSettings = z.infer<typeof leaseSettingsSchema>

export const editDecisionSchema = z.object({
  decision: z.enum(['allow', 'deny']),
  /** Why, in one line the agent can act on; empty when nothing stood in the way. */
  reason: z.string(),
  /** Collisions that did not block (an auto-lease under `advise`/`warn`). */
  warnings: z.array(z.string()),
  /** The repository-relative path checked; null when the file lies outside the project. */
  path: z.string().nullable(),
})
export type EditDecision = z.infer<typeof editDecisionSchema>
