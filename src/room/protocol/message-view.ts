import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { authorKindSchema, messageKindSchema } from './message.ts'
import { threadAudienceSchema, threadLifetimeSchema, threadStatusSchema } from './thread.ts'

/**
 * A message as `post` and `read` print it (`--json`), the MCP tools return it and the dashboard's
 * `/api/messages` answers it: the contract's fields, declared once (issue 21, one schema per answer).
 */
export const messageViewSchema = z.object({
  id: z.string(),
  kind: messageKindSchema,
  topic: z.string().nullable(),
  text: z.string(),
  sender: z.string(),
  /** Who wrote it, as its channel could tell: human, agent, sangam or unknown (docs/room.md, Delivery). */
  author: authorKindSchema,
  recipients: z.array(z.string()),
  threadId: z.string().nullable(),
  at: z.number(),
  worktree: z.string().nullable(),
  branch: z.string().nullable(),
  head: z.string().nullable(),
})
export type MessageView = DeepReadonly<z.infer<typeof messageViewSchema>>

/** A thread as `threads`, `thread-open` and `thread-close` print it and `room_threads` returns it. */
export const threadViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  reason: z.string().nullable(),
  audience: threadAudienceSchema,
  lifetime: threadLifetimeSchema,
  status: threadStatusSchema,
  participants: z.array(z.string()),
  paths: z.array(z.string()),
  source: z.string(),
  updatedAt: z.number(),
})
export type ThreadView = DeepReadonly<z.infer<typeof threadViewSchema>>
