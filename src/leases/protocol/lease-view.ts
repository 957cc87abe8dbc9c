import { z } from 'zod'
import { actorSchema } from '../../identity/protocol/actor.ts'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { leaseConflictSchema, leaseSchema } from './lease.ts'

/**
 * What a claim came to, the same shape for every caller (`claim --json`, `ctx_claim`, the
 * dashboard's `/api/leases/claim`): all patterns granted (`leases`) or none (`conflicts`, each
 * naming the lease in the way). A grant may have gone over other sessions' auto-leases
 * (`overrode`, rung advise or warn) or taken over the actor's own agents' auto-leases (`tookOver`:
 * those leases ended, and the log says so).
 */
export const claimOutcomeViewSchema = z.object({
  granted: z.boolean(),
  leases: z.array(leaseSchema.extend({ renewed: z.boolean() })),
  conflicts: z.array(leaseConflictSchema),
  overrode: z.array(leaseSchema),
  tookOver: z.array(leaseSchema),
  actor: actorSchema,
})
export type ClaimOutcome = DeepReadonly<z.infer<typeof claimOutcomeViewSchema>>

/** What a release came to: `release --json`, `ctx_release`, the dashboard's `/api/leases/release`. */
export const releaseOutcomeViewSchema = z.object({
  released: z.array(leaseSchema),
  /** The released leases that were another holder's. */
  forced: z.array(leaseSchema),
  actor: actorSchema,
})
export type ReleaseOutcome = DeepReadonly<z.infer<typeof releaseOutcomeViewSchema>>

/**
 * Who holds a file or overlaps a glob: `who-has --json` and `ctx_who_has`. A file outside the
 * project is answered with `path: null` and no leases, since no lease can apply to it.
 */
export const whoHasViewSchema = z.object({
  /** The file's repository-relative path, when asked with a path inside the project. */
  path: z.string().nullable(),
  /** The normalised glob, when asked with one. */
  pattern: z.string().nullable(),
  leases: z.array(leaseSchema),
})
export type WhoHasOutcome = DeepReadonly<z.infer<typeof whoHasViewSchema>>
