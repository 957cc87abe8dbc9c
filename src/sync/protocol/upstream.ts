import { z } from 'zod'
import { actorSchema } from '../../identity/protocol/actor.ts'
import { clientIdSchema } from './push.ts'
import { recordDraftSchema } from './record.ts'

/**
 * Messages a client sends on its socket (`GET /v1/projects/:projectId/socket`, authenticated by
 * its Authorization header). The first must be `subscribe`; until then the server sends nothing.
 */

/** Starts delivery of every record with gseq > `after` (the last gseq the client applied), then live. */
export const subscribeMessageSchema = z.object({
  type: z.literal('subscribe'),
  actor: actorSchema,
  clientId: clientIdSchema,
  after: z.number().int().nonnegative(),
})

/** A push over the socket; answered by `pushed` (or `error`) with the same `requestId`. */
export const pushMessageSchema = z.object({
  type: z.literal('push'),
  requestId: z.string().min(1).max(100),
  records: z.array(recordDraftSchema).min(1),
})

/** Marks an actor (the connection's, or a session acting for it) active now. */
export const activityMessageSchema = z.object({
  type: z.literal('activity'),
  actor: actorSchema,
})

export const upstreamMessageSchema = z.discriminatedUnion('type', [
  subscribeMessageSchema,
  pushMessageSchema,
  activityMessageSchema,
])
export type UpstreamMessage = z.infer<typeof upstreamMessageSchema>

/**
 * Sent as exactly this text, it is answered with `pongMessage` by the runtime itself, without
 * waking a hibernated server: the keep-alive for idle connections.
 */
export const pingMessage = JSON.stringify({ type: 'ping' })
export const pongMessage = JSON.stringify({ type: 'pong' })
