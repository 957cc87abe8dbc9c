import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/** Why a lane has no merge answer. */
export const readySkipSchema = z.enum(['missing', 'no-commit', 'unrelated'])
export type ReadySkip = z.infer<typeof readySkipSchema>

/** Another lane this one would conflict with, and on which paths. */
export const readyCollisionViewSchema = z.object({
  branch: z.string().nullable(),
  worktree: z.string(),
  /** Paths the merge of the two lanes would conflict on. */
  paths: z.array(z.string()),
})
export type ReadyCollision = DeepReadonly<z.infer<typeof readyCollisionViewSchema>>

/** One lane's verdict. */
export const readyBranchViewSchema = z.object({
  /** The branch; null for a detached worktree (`worktree` names it). */
  branch: z.string().nullable(),
  worktree: z.string(),
  /** null when the lane was skipped (see `skipped`). */
  mergesCleanly: z.boolean().nullable(),
  conflicts: z.array(z.string()),
  collidesWith: z.array(readyCollisionViewSchema),
  uncommitted: z.number().nullable(),
  skipped: readySkipSchema.nullable(),
})
export type ReadyBranch = DeepReadonly<z.infer<typeof readyBranchViewSchema>>

/** Would each lane merge into the target, and which lanes would conflict with each other. */
export const readyVerdictViewSchema = z.object({
  into: z.string(),
  /** Every lane merged against the target and every nominated pair merged: nothing is a floor. */
  complete: z.boolean(),
  /** Lanes that merge and collide with no other lane. */
  clean: z.number(),
  /** Lanes that merge on their own but conflict with another lane. */
  latent: z.number(),
  /** Lanes that do not merge into the target. */
  conflicted: z.number(),
  /** Pairs of lanes sharing a touched path, each merged (no cap). */
  pairsProbed: z.number(),
  branches: z.array(readyBranchViewSchema),
})
export type ReadyVerdict = DeepReadonly<z.infer<typeof readyVerdictViewSchema>>
