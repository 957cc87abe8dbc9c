import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { worktreeStatesViewSchema } from './worktree-states-view.ts'

/** An agent session the room can address. */
export const targetAgentViewSchema = z.object({
  handle: z.string(),
  vendor: z.string(),
  sessionId: z.string(),
  /** The human it acts for. */
  human: z.string(),
  state: z.string(),
  worktree: z.string().nullable(),
  machine: z.string(),
  /** The machine's readable name (its hostname, or the one set with `identify --machine`). */
  machineName: z.string(),
})
export type TargetAgent = DeepReadonly<z.infer<typeof targetAgentViewSchema>>

/** A person, once whatever machines and channels they use (chat, the CLI, their agents). */
export const targetPersonViewSchema = z.object({
  handle: z.string(),
  name: z.string(),
  state: z.string(),
  /** The machines they were seen on, by id, and by readable name in the same order. */
  machines: z.array(z.string()),
  machineNames: z.array(z.string()),
})
export type TargetPerson = DeepReadonly<z.infer<typeof targetPersonViewSchema>>

/** A worktree the room can address as `#target`. */
export const targetWorktreeViewSchema = z.object({
  path: z.string(),
  target: z.string(),
  /** null when detached (or unknown for another machine's worktree). */
  branch: z.string().nullable(),
  /**
   * Uncommitted paths; for another machine's worktree, as its daemon last shared them (null when
   * it shared none, or the worktree is gone).
   */
  uncommitted: z.number().nullable(),
  /** Agents not offline whose presence is in this worktree. */
  activeAgents: z.number(),
  /** Whole days since HEAD's commit; null when unknown. */
  ageDays: z.number().nullable(),
  machine: z.string(),
  machineName: z.string(),
  /** The directory is gone from disk (git still lists it; `git worktree prune` drops it). */
  missing: z.boolean(),
})
export type TargetWorktree = DeepReadonly<z.infer<typeof targetWorktreeViewSchema>>

/** Who and where the room can address: `targets --json`, `room_targets`, the dashboard's `/api/targets`. */
export const targetsViewSchema = z.object({
  agents: z.array(targetAgentViewSchema),
  people: z.array(targetPersonViewSchema),
  worktrees: z.array(targetWorktreeViewSchema),
  /** Where this machine's worktree states come from, and how old they are. */
  states: worktreeStatesViewSchema,
})
export type Targets = DeepReadonly<z.infer<typeof targetsViewSchema>>
