import type { SyncError, SyncErrorCode } from '../../src/sync/protocol/error.ts'

type RefusalDetails = Omit<SyncError['error'], 'code' | 'message'>

/**
 * A request the server refuses: thrown where the problem is found (auth, body parsing, limits) and
 * turned into a response in one place, `refusalResponse`. Anything else thrown is a bug (500).
 */
export class Refusal extends Error {
  readonly code: SyncErrorCode
  readonly details: RefusalDetails

  constructor(code: SyncErrorCode, message: string, details: RefusalDetails = {}) {
    super(message)
    this.name = 'Refusal'
    this.code = code
    this.details = details
  }
}

/** The only place a sync error code becomes an HTTP status. */
export const statusOf: Record<SyncErrorCode, number> = {
  UNAUTHORIZED: 401,
  PROJECT_TAKEN: 409,
  KEY_IN_QUERY: 400,
  INVALID_REQUEST: 400,
  BODY_TOO_LARGE: 413,
  TOO_MANY_RECORDS: 413,
  RATE_LIMITED: 429,
  TOO_MANY_CONNECTIONS: 503,
  QUOTA_EXCEEDED: 507,
  CURSOR_AHEAD: 409,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL: 500,
}

export function refusalBody(refusal: Refusal): SyncError {
  return { error: { code: refusal.code, message: refusal.message, ...refusal.details } }
}

export function refusalResponse(refusal: Refusal): Response {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' })
  if (refusal.code === 'UNAUTHORIZED') headers.set('www-authenticate', 'Bearer realm="sangam"')
  if (refusal.details.retryAfterMs !== undefined)
    headers.set('retry-after', String(Math.max(1, Math.ceil(refusal.details.retryAfterMs / 1000))))
  return new Response(JSON.stringify(refusalBody(refusal)), { status: statusOf[refusal.code], headers })
}

/**
 * The response for anything thrown while handling a request: a refusal as itself, anything else
 * as a bare 500 whose cause goes to the server's log (never to the client, never with the request).
 */
export function failureResponse(error: unknown, where: string): Response {
  if (error instanceof Refusal) return refusalResponse(error)
  console.error(`sangam-sync: ${where} failed`, error)
  return refusalResponse(new Refusal('INTERNAL', 'the sync server failed; see its logs'))
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
}
