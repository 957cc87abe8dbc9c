import { z } from 'zod'
import { rungs } from '../../options/protocol/rung.ts'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { alertSeverities } from './alert-severity.ts'
import { ruleNames } from './rule-name.ts'

/** One rule as `sangam rules --json` prints it and MCP `room_rules` returns it. */
export const ruleViewSchema = z.object({
  name: z.enum(ruleNames),
  rung: z.enum(rungs),
  default: z.enum(rungs),
  /** True when the team set it (even to its default); false while it follows the default. */
  decided: z.boolean(),
  /** True when, at this rung, sangam denies the edit rather than only telling. */
  enforced: z.boolean(),
  /** The full name of the option its rung is stored under: `room.file-overlap`. */
  option: z.string(),
  condition: z.string(),
  /** What the current rung does. */
  does: z.string(),
})
export type RuleView = DeepReadonly<z.infer<typeof ruleViewSchema>>

/** One alert as `sangam alerts --json` prints it and MCP `room_alerts` returns it. */
export const alertViewSchema = z.object({
  /** Stable: the same condition gives the same id on every run and every replica. */
  id: z.string(),
  /** A rule's name, or `decision-needed`, `blocker`, `handoff`. */
  type: z.enum([...ruleNames, 'decision-needed', 'blocker', 'handoff']),
  severity: z.enum(alertSeverities),
  title: z.string(),
  /** Recipient tokens: `@handle`, `@human`, `#worktree`. */
  participants: z.array(z.string()),
  paths: z.array(z.string()),
  threadId: z.string().nullable(),
})
export type Alert = DeepReadonly<z.infer<typeof alertViewSchema>>
