import { z } from 'zod'

/**
 * Where a view's worktree states come from: `git`, asked now, or `daemon`, the rows of `sangam
 * up`'s latest round (git asked only of a worktree the round has no usable row for). `at` is when
 * the round read them (null: read from git by this answer); `ageMs` how long before the answer.
 */
export const worktreeStatesViewSchema = z.object({
  source: z.enum(['git', 'daemon']),
  at: z.number().nullable(),
  ageMs: z.number(),
})
export type WorktreeStatesSeen = Readonly<z.infer<typeof worktreeStatesViewSchema>>
