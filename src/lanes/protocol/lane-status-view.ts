import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { mainOutsideViewSchema } from './main-outside-view.ts'

/** A lane's active semantic task: its files and the refs that keep the work it replaced. */
export const laneTaskViewSchema = z.object({
  id: z.string(),
  file: z.string(),
  validationFile: z.string(),
  snapshotRef: z.string(),
  snapshot: z.string().nullable(),
  baseRef: z.string(),
  base: z.string().nullable(),
})
export type LaneTaskView = DeepReadonly<z.infer<typeof laneTaskViewSchema>>

/** A lane as `sangam status` shows it. */
export const laneViewSchema = z.object({
  name: z.string(),
  state: z.string(),
  branch: z.string(),
  head: z.string().nullable(),
  dirty: z.boolean(),
  /** Commits on main the lane does not have. */
  behind: z.number(),
  /** Commits of the lane main does not have: work to publish, with `dirty`. */
  ahead: z.number(),
  task: laneTaskViewSchema.nullable(),
  owner: z.string(),
  worktree: z.string(),
  agent: z.string().nullable(),
  /** The next safe step for this lane, in words. */
  next: z.string(),
})
export type LaneView = DeepReadonly<z.infer<typeof laneViewSchema>>

/** The integration lock as `sangam status` shows it. */
export const laneLockViewSchema = z.object({
  lane: z.string(),
  task: z.string().nullable(),
  since: z.number(),
  owner: z.string(),
  heartbeatAt: z.number(),
  /** Silent for `lanes.lock-stale-minutes`: `sync --takeover --reason` may take it over. */
  stale: z.boolean(),
})
export type LaneLock = DeepReadonly<z.infer<typeof laneLockViewSchema>>

/** What `sangam status --json` prints and MCP `lane_status` returns. */
export const laneStatusViewSchema = z.object({
  main: z.string().nullable(),
  mainBranch: z.string(),
  lock: laneLockViewSchema.nullable(),
  guard: z.object({ installed: z.boolean(), missing: z.array(z.string()) }),
  /**
   * Main moved outside sangam (D300): this machine's main (`where: here`), else the team remote's
   * as last fetched against the team server's record (`where: remote`); null when both are where
   * sangam last moved them.
   */
  mainOutside: mainOutsideViewSchema.nullable(),
  lanes: z.array(laneViewSchema),
})
export type LaneStatus = DeepReadonly<z.infer<typeof laneStatusViewSchema>>
