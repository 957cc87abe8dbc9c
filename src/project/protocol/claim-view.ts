import { z } from 'zod'
import { claimOutcomeViewSchema } from '../../leases/protocol/lease-view.ts'
import { worktreeStatesViewSchema } from '../../room/protocol/worktree-states-view.ts'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/**
 * Another worktree whose work already touches what a claim names: committed on its branch since it
 * left main, or uncommitted. Said at claim time (`claim`, `ctx_claim`), before anyone writes a line.
 */
export const claimForecastViewSchema = z.object({
  worktree: z.string(),
  /** Null for this machine's worktrees; else the machine whose `room.worktree` state says so. */
  machine: z.string().nullable(),
  /** That machine's readable name (room/services/machine-names.ts); null for this machine's worktrees. */
  machineName: z.string().nullable(),
  branch: z.string().nullable(),
  /** The lane it is, when it is one of this machine's lanes. */
  lane: z.string().nullable(),
  /** The changed paths the claimed patterns cover (at most `maxPathsShown`). */
  paths: z.array(z.string()),
  /** How many covered paths there are in all. */
  pathCount: z.number().int(),
})
export type ClaimForecast = DeepReadonly<z.infer<typeof claimForecastViewSchema>>

/**
 * `sangam claim --json` and `ctx_claim`: the claim's outcome and its forecast, and where this
 * machine's worktree states in the forecast came from (git now, or `sangam up`'s fresh round).
 */
export const claimAnswerViewSchema = claimOutcomeViewSchema.extend({
  forecast: z.array(claimForecastViewSchema),
  states: worktreeStatesViewSchema,
})
