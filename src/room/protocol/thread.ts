import { z } from 'zod'

/**
 * A thread of the room: a titled conversation with participants and paths, open or closed. Its
 * record carries its whole state after each change (open, a post into it, close); the newest by
 * `updatedAt` wins everywhere, ties broken by the server's order.
 */

export const threadAudiences = ['agents', 'human-loop'] as const
export const threadAudienceSchema = z.enum(threadAudiences)
export type ThreadAudience = z.infer<typeof threadAudienceSchema>

export const threadLifetimes = ['durable', 'temporary'] as const
export const threadLifetimeSchema = z.enum(threadLifetimes)
export type ThreadLifetime = z.infer<typeof threadLifetimeSchema>

export const threadStatusSchema = z.enum(['open', 'closed'])
export type ThreadStatus = z.infer<typeof threadStatusSchema>

/** The session that opened a thread, when an agent did: a human-loop thread it opened blocks it. */
export const threadOpenerSchema = z.object({
  vendor: z.string().min(1),
  sessionId: z.string().min(1),
})
export type ThreadOpener = z.infer<typeof threadOpenerSchema>

export { humanToken } from './human-token.ts'

export const threadSchema = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  reason: z.string().min(1).nullable(),
  audience: threadAudienceSchema,
  lifetime: threadLifetimeSchema,
  status: threadStatusSchema,
  /** Recipient tokens: `@handle`, `@human`, `#worktree`. */
  participants: z.array(z.string().min(1)),
  /** Repository-relative paths the thread is about. */
  paths: z.array(z.string().min(1)),
  /** Who or what opened it: the opener's handle or human name, or a daemon's name (`ready`). */
  source: z.string().min(1),
  opener: threadOpenerSchema.nullable(),
  /** ms epoch. */
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
})
export type RoomThread = z.infer<typeof threadSchema>
