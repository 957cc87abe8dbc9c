import { z } from 'zod'
import { recordDraftSchema } from './record.ts'

/** Names the pushing replica (one per machine and project); push rate limits are kept per client. */
export const clientIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'a client id is 8–64 characters of A–Z, a–z, 0–9, _ and -')

/**
 * `POST /v1/projects/:projectId/records`. The records are appended in the order given; the server
 * refuses more than its `maxRecordsPerPush` (see `GET /v1/health`).
 */
export const pushRequestSchema = z.object({
  clientId: clientIdSchema,
  records: z.array(recordDraftSchema).min(1),
})
export type PushRequest = z.infer<typeof pushRequestSchema>

/** One pushed record's fate: `duplicate` means it was appended before, and `gseq` is that first one's. */
export const pushResultSchema = z.object({
  id: z.string(),
  gseq: z.number().int().positive(),
  status: z.enum(['created', 'duplicate']),
})
export type PushResult = z.infer<typeof pushResultSchema>

export const pushResponseSchema = z.object({
  /** One result per pushed record, in the order pushed. */
  results: z.array(pushResultSchema),
  headGseq: z.number().int().nonnegative(),
})
export type PushResponse = z.infer<typeof pushResponseSchema>
