import { z } from 'zod'
import { authorKinds } from './author-kind.ts'
import { maxMessageChars } from './message-limits.ts'

/**
 * A message of the room, as every machine stores it and as `post` / `read` print it. Times are ms
 * since the epoch, as the lease shapes keep them: the room compares them (thread recency, read
 * order ties), so they stay numbers end to end.
 */

export const messageKinds = ['message', 'allocation', 'handoff'] as const
export const messageKindSchema = z.enum(messageKinds)
export type MessageKind = z.infer<typeof messageKindSchema>

export { maxMessageChars }

/**
 * The structured part of a handoff: where the work stands (the commit it is at, the paths it
 * touched), what shows it works, what stops it, and who takes it next. Also rendered into the
 * message's text, so a reader without the fields still sees them.
 */
export const handoffSchema = z.object({
  sourceSha: z.string().min(1).nullable(),
  paths: z.array(z.string().min(1)),
  proof: z.string().min(1).nullable(),
  blocker: z.string().min(1).nullable(),
  /** A recipient token: `@handle`, `@human` or `#worktree`. */
  nextOwner: z.string().min(1).nullable(),
})
export type Handoff = z.infer<typeof handoffSchema>

/** The session a message came from, when an agent posted it (for the context cursor: no echo). */
export const messageSessionSchema = z.object({
  vendor: z.string().min(1),
  sessionId: z.string().min(1),
})

export const authorKindSchema = z.enum(authorKinds)

export { type AuthorKind, authorKinds } from './author-kind.ts'

export const messageSchema = z.object({
  id: z.string().min(1),
  kind: messageKindSchema,
  topic: z.string().min(1).nullable(),
  text: z.string().min(1).max(maxMessageChars),
  /** The poster's handle (an agent session), or the human's name (a human at the CLI). */
  sender: z.string().min(1),
  /** The human the poster acts for. */
  human: z.string().min(1),
  session: messageSessionSchema.nullable(),
  /** Who wrote it (absent from an older sangam's records: `unknown`). */
  author: authorKindSchema.default('unknown'),
  /** Recipient tokens, `@handle`, `@human`, `#worktree`; empty means the whole room. */
  recipients: z.array(z.string().min(1)),
  threadId: z.string().min(1).nullable(),
  /** ms epoch: when it was posted (the poster's clock). */
  at: z.number().int(),
  /** The poster's git context: absolute worktree path, branch (null when detached), HEAD commit. */
  worktree: z.string().min(1).nullable(),
  branch: z.string().min(1).nullable(),
  head: z.string().min(1).nullable(),
  handoff: handoffSchema.nullable(),
})
export type RoomMessage = z.infer<typeof messageSchema>
