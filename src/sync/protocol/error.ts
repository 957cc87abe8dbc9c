import { z } from 'zod'

/**
 * Every refusal from the sync server carries one of these codes, so a client decides on the code and
 * shows the message. The set is closed; `server/src/refusal.ts` is the one place a code gets its
 * HTTP status.
 */
export const syncErrorCodeSchema = z.enum([
  /** Missing key, wrong key, or a project that was never created: one answer for all three. */
  'UNAUTHORIZED',
  /** A create for a project id that is already registered under another key. */
  'PROJECT_TAKEN',
  /** A key or token in the query string; keys travel only in the Authorization header. */
  'KEY_IN_QUERY',
  /** The body or query does not match the protocol (the message says where). */
  'INVALID_REQUEST',
  /** The body is larger than the server's `MAX_BODY_BYTES`. */
  'BODY_TOO_LARGE',
  /** A push with more records than the server's `MAX_RECORDS_PER_PUSH`. */
  'TOO_MANY_RECORDS',
  /** More pushes than `PUSHES_PER_SECOND` from one client or connection; retry after `retryAfterMs`. */
  'RATE_LIMITED',
  /** The project already has as many open sockets as the server allows; retry after `retryAfterMs`. */
  'TOO_MANY_CONNECTIONS',
  /**
   * A write that would take the project's storage past the server's budget (`MAX_PROJECT_BYTES`):
   * nothing of it was written; `usedBytes` and `limit` say where the project stands. Only the
   * server's operator can raise it; the client keeps what it could not push.
   */
  'QUOTA_EXCEEDED',
  /** A pull or subscription cursor beyond the project's head: the client's replica came from elsewhere. */
  'CURSOR_AHEAD',
  /** No such route. */
  'NOT_FOUND',
  /** The route exists but not with this method. */
  'METHOD_NOT_ALLOWED',
  /** A bug on the server. */
  'INTERNAL',
])
export type SyncErrorCode = z.infer<typeof syncErrorCodeSchema>

export const syncErrorSchema = z.object({
  error: z.object({
    code: syncErrorCodeSchema,
    message: z.string(),
    /** For RATE_LIMITED: when the next push will be accepted. */
    retryAfterMs: z.number().int().nonnegative().optional(),
    /** For BODY_TOO_LARGE, TOO_MANY_RECORDS and QUOTA_EXCEEDED: the limit that was exceeded. */
    limit: z.number().int().nonnegative().optional(),
    /** For QUOTA_EXCEEDED: the bytes the project's storage holds now. */
    usedBytes: z.number().int().nonnegative().optional(),
    /** For CURSOR_AHEAD: the project's current head. */
    headGseq: z.number().int().nonnegative().optional(),
  }),
})
export type SyncError = z.infer<typeof syncErrorSchema>
