import { z } from 'zod'

/**
 * One worktree's state as its machine last saw it, shared through `room.worktree` records so that
 * other machines can predict collisions with it: where it is (machine, path, target, branch),
 * where it left the main branch (`base`), and what it changes since then, each path with the
 * line ranges it changes in the base version. Never file contents: only paths and line numbers.
 */
export const maxWorktreePaths = 500
export const maxPathHunks = 50

/** A changed line range of the base version, inclusive: lines `start`..`end` (1-based). */
export const baseRangeSchema = z
  .tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])
  .refine(([start, end]) => end >= start, 'a range ends at or after its start')
export type BaseRange = readonly [number, number]

export const worktreeChangeSchema = z.object({
  /** Repository-relative path. */
  path: z.string().min(1).max(4096),
  /**
   * The base ranges its hunks replace; a pure insertion after line a is [a, a] (so it touches
   * lines a and a + 1's neighbourhood). null: unknown (binary, or more than `maxPathHunks` hunks),
   * treated as the whole file.
   */
  ranges: z.array(baseRangeSchema).max(maxPathHunks).nullable(),
})
export type WorktreeChange = z.infer<typeof worktreeChangeSchema>

export const worktreeStatePayloadSchema = z.object({
  /** The stable id of the machine (one per data dir) that wrote it. */
  machine: z.string().min(1).max(100),
  /** Absolute path of the worktree on that machine. */
  path: z.string().min(1).max(4096),
  /** `missing`: the worktree is gone from its machine (the other fields are the last known or null). */
  status: z.enum(['present', 'missing']),
  /** The worktree's room target (`#target`), null when unknown. */
  target: z.string().min(1).max(100).nullable(),
  branch: z.string().min(1).nullable(),
  head: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/)
    .nullable(),
  /** The merge base of HEAD with the main branch; null when none (unrelated, or no main branch). */
  base: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/)
    .nullable(),
  /** ms epoch of HEAD's commit. */
  lastCommitAt: z.number().int().nullable(),
  uncommitted: z.number().int().nonnegative().nullable(),
  /** Paths changed since `base`, committed or not, sorted, at most `maxWorktreePaths`. */
  changes: z.array(worktreeChangeSchema).max(maxWorktreePaths),
  /** More paths changed than `changes` lists. */
  truncated: z.boolean(),
  /** ms epoch of the change; a newer one wins. */
  updatedAt: z.number().int(),
})
export type WorktreeStatePayload = z.infer<typeof worktreeStatePayloadSchema>
