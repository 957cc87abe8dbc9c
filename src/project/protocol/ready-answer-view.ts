import { z } from 'zod'
import { mainOutsideViewSchema } from '../../lanes/protocol/main-outside-view.ts'
import { readyVerdictViewSchema } from '../../room/protocol/ready-view.ts'
import { worktreeStatesViewSchema } from '../../room/protocol/worktree-states-view.ts'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/**
 * `sangam ready --json`, MCP `room_ready` and the dashboard's lanes page (`ready`): the verdict,
 * how many merges git ran this time (the rest came from the memo), and a main moved outside
 * sangam, which `ready` weighs worktrees against (D300).
 */
export const readyAnswerViewSchema = readyVerdictViewSchema.extend({
  merged: z.number(),
  mainOutside: mainOutsideViewSchema.nullable(),
  /** Where this machine's worktree states come from, and how old they are. */
  states: worktreeStatesViewSchema,
})
export type ReadyAnswer = DeepReadonly<z.infer<typeof readyAnswerViewSchema>>
