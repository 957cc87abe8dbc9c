import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { eventKindSchema, vendorSchema } from './event.ts'

/** One event of a turn as `thread` shows it. */
export const threadItemViewSchema = z.object({
  id: z.string(),
  kind: eventKindSchema,
  at: z.string(),
  toolName: z.string().nullable(),
  text: z.string(),
  truncated: z.boolean(),
  /**
   * For a Codex exec result, its header (`Chunk ID`, `Wall time`, `Process exited with code`, …)
   * said short: `exit 0 · 1.2 s`; `text` is then what the command printed. Null otherwise.
   */
  status: z.string().nullable(),
  /** The event the thread was asked for. */
  focus: z.boolean(),
  /** Read from a Claude subagent's transcript rather than the session's own. */
  subagent: z.boolean(),
})
export type ThreadItem = DeepReadonly<z.infer<typeof threadItemViewSchema>>

/** One moment expanded to its human turn: `sangam thread --json`, `ctx_thread`, the dashboard's `/api/thread`. */
export const threadResultViewSchema = z.object({
  focus: z.string(),
  session: z.object({
    id: z.string(),
    vendor: vendorSchema,
    cliVersion: z.string().nullable(),
    author: z.string(),
    branch: z.string().nullable(),
    cwd: z.string().nullable(),
  }),
  /** The human turn the moment belongs to; null when the session has none before it. */
  human: threadItemViewSchema.nullable(),
  /** What followed, up to the next human turn, in order. */
  items: z.array(threadItemViewSchema),
  /** Events of the turn left out around the focus to keep the answer short (both sides). */
  omitted: z.number(),
  /** Of those, the ones before the focus, and after it. */
  omittedBefore: z.number(),
  omittedAfter: z.number(),
})
export type ThreadResult = DeepReadonly<z.infer<typeof threadResultViewSchema>>
