import { z } from 'zod'

/**
 * What one server accepts. The server advertises its own values on `GET /v1/health`, so a client
 * sizes its batches to the server it talks to rather than to these defaults.
 */
export const syncLimitsSchema = z.object({
  /** Largest request body (HTTP) or WebSocket message, in bytes. */
  maxBodyBytes: z.number().int().positive(),
  /** Most records in one push. */
  maxRecordsPerPush: z.number().int().positive(),
  /** Pushes per second one client (HTTP, by `clientId`) or one connection (WebSocket) may make. */
  pushesPerSecond: z.number().int().positive(),
  /** Most records one pull page returns. */
  maxPullLimit: z.number().int().positive(),
})
export type SyncLimits = z.infer<typeof syncLimitsSchema>

export const defaultSyncLimits: SyncLimits = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxRecordsPerPush: 500,
  pushesPerSecond: 20,
  maxPullLimit: 1000,
})

/** A page also stops once its records add up to this many bytes, so one page stays one sane response. */
export const maxPullPageBytes = 4 * 1024 * 1024

/** The answer to `GET /v1/health`. */
export const healthResponseSchema = z.object({
  ok: z.literal(true),
  service: z.literal('sangam-sync'),
  /** Bumped on an incompatible change of this protocol. */
  protocol: z.number().int().positive(),
  limits: syncLimitsSchema,
})
export type HealthResponse = z.infer<typeof healthResponseSchema>

export const syncProtocolVersion = 1
