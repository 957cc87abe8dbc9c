import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ErrorCode, isSangamError } from '../shared/sangam-error.ts'

/** How each failure's code answers over HTTP (docs/ui.md, "API"); anything unlisted is a 500. */
const statusOf: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  [ErrorCode.Usage]: 422,
  [ErrorCode.InvalidInput]: 422,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.LeaseConflict]: 409,
  [ErrorCode.StoreBusy]: 503,
  [ErrorCode.Unconfirmed]: 503,
}

/** The one error body of the dashboard's API. */
export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } }
}

/**
 * A thrown failure as the API's answer: a SangamError keeps its code and message (the words the
 * CLI prints); anything else is INTERNAL, without its details (the log has them).
 */
export function errorResponse(c: Context, error: unknown): Response {
  if (isSangamError(error)) return c.json(errorBody(error.code, error.message), statusOf[error.code] ?? 500)
  return c.json(errorBody(ErrorCode.Internal, 'the dashboard failed to answer; its terminal says why'), 500)
}
