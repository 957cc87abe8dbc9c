import { z } from 'zod'
import { syncedRecordSchema } from './record.ts'

/**
 * `GET /v1/projects/:projectId/records?after=<gseq>&limit=<n>`: the records with gseq > `after`, in
 * order. A client stores the gseq of the last record it applied and pulls after it until `hasMore`
 * is false. `limit` above the server's `maxPullLimit` is lowered to it; a page also ends early
 * once it holds about 4 MiB of records.
 */
export const pullQuerySchema = z.object({
  after: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().default(500),
})
export type PullQuery = z.infer<typeof pullQuerySchema>

export const pullResponseSchema = z.object({
  records: z.array(syncedRecordSchema),
  /** The newest gseq in the project when the page was read. */
  headGseq: z.number().int().nonnegative(),
  /** True when records after this page exist: pull again after the last gseq received. */
  hasMore: z.boolean(),
})
export type PullResponse = z.infer<typeof pullResponseSchema>
