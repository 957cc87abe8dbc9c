import { z } from 'zod'
import { syncErrorSchema } from './error.ts'
import { presenceEntrySchema } from './presence.ts'
import { pushResultSchema } from './push.ts'
import { syncedRecordSchema } from './record.ts'

/** Messages the server sends on a subscribed socket. */

/** The answer to `subscribe`; the backlog follows as `records` messages. */
export const welcomeMessageSchema = z.object({
  type: z.literal('welcome'),
  headGseq: z.number().int().nonnegative(),
  /** The first page of presence: the message stays far below the 1 MiB WebSocket limit. */
  presence: z.array(presenceEntrySchema),
  /** Presence entries left out of `presence` (the least recently active); the rest are on `GET …/presence`. */
  presenceOmitted: z.number().int().nonnegative().optional(),
})

/**
 * Records in gseq order, continuing exactly where the previous `records` message (or the
 * subscription's `after`) stopped: a socket never skips or repeats a gseq.
 */
export const recordsMessageSchema = z.object({
  type: z.literal('records'),
  records: z.array(syncedRecordSchema),
  headGseq: z.number().int().nonnegative(),
})

export const pushedMessageSchema = z.object({
  type: z.literal('pushed'),
  requestId: z.string(),
  results: z.array(pushResultSchema),
  headGseq: z.number().int().nonnegative(),
})

/**
 * Sent when actors came online or went offline: at most one per socket per short window (changes
 * within it are coalesced), paged like the welcome's.
 */
export const presenceMessageSchema = z.object({
  type: z.literal('presence'),
  presence: z.array(presenceEntrySchema),
  /** Entries left out, as in the welcome. */
  omitted: z.number().int().nonnegative().optional(),
})

/** A refused message; `requestId` names the push it answers, if any. */
export const errorMessageSchema = z.object({
  type: z.literal('error'),
  requestId: z.string().optional(),
  ...syncErrorSchema.shape,
})

/** The runtime's own answer to `pingMessage` (see sync-upstream.ts). */
export const pongMessageSchema = z.object({ type: z.literal('pong') })

export const downstreamMessageSchema = z.discriminatedUnion('type', [
  welcomeMessageSchema,
  recordsMessageSchema,
  pushedMessageSchema,
  presenceMessageSchema,
  errorMessageSchema,
  pongMessageSchema,
])
export type DownstreamMessage = z.infer<typeof downstreamMessageSchema>
