import { z } from 'zod'
import { actorSchema } from '../../identity/protocol/actor.ts'

/**
 * Presence is state, not history: who is connected now and when each actor last did something.
 * It is served by `GET /v1/projects/:projectId/presence` and sent to subscribed sockets when an
 * actor comes online or goes offline; it is not part of the gseq log.
 */
export const presenceEntrySchema = z.object({
  actor: actorSchema,
  /** Subscribed WebSocket connections of this actor right now. */
  connections: z.number().int().nonnegative(),
  online: z.boolean(),
  /**
   * ISO-8601 of its last push, claim, release or activity message, to within 10 s; null if it
   * only connected.
   */
  lastActiveAt: z.string().nullable(),
})
export type PresenceEntry = z.infer<typeof presenceEntrySchema>

export const presenceResponseSchema = z.object({
  /** Online actors first, then by most recent activity. */
  presence: z.array(presenceEntrySchema),
  /** Entries left out to keep the answer bounded (the least recently active ones); 0 or absent if none. */
  omitted: z.number().int().nonnegative().optional(),
})
export type PresenceResponse = z.infer<typeof presenceResponseSchema>

/** Actors last active longer ago than this, and not connected, drop out of presence. */
export const presenceHorizonMs = 7 * 24 * 60 * 60 * 1000
