import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/** A lane as the board shows it (`sangam status` reads it; the task is its id only). */
export const boardLaneViewSchema = z.object({
  name: z.string(),
  /** `clean`, `dirty`, `task`, `integrating`, `deleting` or `missing` (as `status`). */
  state: z.string(),
  owner: z.string(),
  /** The lane's agent command (`claude`, `codex`, …), null for a human's lane. */
  agent: z.string().nullable(),
  /** Commits on main the lane does not have. */
  behind: z.number(),
  dirty: z.boolean(),
  /** The active semantic task's id. */
  task: z.string().nullable(),
  /** The lane's next safe step, in words. */
  next: z.string(),
})
export type BoardLane = DeepReadonly<z.infer<typeof boardLaneViewSchema>>
