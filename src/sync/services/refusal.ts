import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { SyncError, SyncErrorCode } from '../protocol/error.ts'

/** A refusal the sync server answered: its HTTP status (null on the socket) and its error body. */
export interface ServerRefusal {
  readonly status: number | null
  readonly error: SyncError['error']
}

/** Every error a refusal becomes: its `wireCode` is the server's code. */
export type RefusalError = SangamError<SyncErrorCode>

export interface RefusalContext {
  /** The server's URL, named in every message. */
  readonly url: string
  /** What was refused, named in the message ("refused the claim"); omitted, "refused". */
  readonly action?: string
  /**
   * An arbitrated operation (a claim, a release): INVALID_REQUEST then means the caller's own input
   * was wrong (INVALID_INPUT), and a server failure leaves the operation UNCONFIRMED.
   */
  readonly arbitrated?: boolean
  /** Messages for codes the caller explains better itself (`join` naming the project). */
  readonly explain?: Partial<Record<SyncErrorCode, string>>
}

/**
 * The one place a refusal from the sync server becomes a SangamError (HTTP answers, socket
 * upgrades and socket error messages alike). The wire code is kept as the error's typed
 * `wireCode`, so callers decide on it (`isFatalRefusal`) and never parse a message; `data` holds
 * the server's URL, the status and the refusal's details (`retryAfterMs`, `limit`, `headGseq`).
 */
export function refusalError(refusal: ServerRefusal, context: RefusalContext): RefusalError {
  const { code, message: said, ...details } = refusal.error
  const { url, action } = context
  const serverFailed = refusal.status !== null && refusal.status >= 500
  const failed = code === 'INTERNAL' || serverFailed
  // A 5xx is no usable answer: whoever retries on "unreachable" retries on it too.
  const data = { server: url, status: refusal.status, unreachable: serverFailed, ...details }
  const options = { wireCode: code }
  if (context.arbitrated === true && code === 'INVALID_REQUEST')
    return new SangamError(ErrorCode.InvalidInput, said, data, options)
  if (context.arbitrated === true && failed) {
    const message = `the sync server at ${url} failed (${said}). The ${action ?? 'request'} is unconfirmed: try again`
    return new SangamError(ErrorCode.Unconfirmed, message, data, options)
  }
  const refused = `the sync server at ${url} refused${action === undefined ? '' : ` the ${action}`}: ${said}`
  const message = context.explain?.[code] ?? explained[code]?.(refused, url, refusal.error) ?? refused
  return new SangamError(ErrorCode.ServerRefused, message, data, options)
}

/** The refusals whose fix is the same wherever they come from. */
const explained: Partial<
  Record<SyncErrorCode, (refused: string, url: string, error: SyncError['error']) => string>
> = {
  UNAUTHORIZED: (refused) =>
    `${refused}: the key or project id is wrong; run sangam join with a fresh connection line`,
  CURSOR_AHEAD: (_refused, url, error) =>
    `the sync server at ${url} has fewer records (head ${error.headGseq ?? '?'}) than this replica applied: it lost data or is another server. Nothing was reset; run sangam join with the connection line to start over from the server (this machine's events are pushed again)`,
}

/**
 * The refusal in a non-2xx answer: the protocol's error body (`body`, parsed by the caller, which
 * has zod loaded), or, when something in between (a proxy, a load balancer) answered instead of
 * the Worker, an INTERNAL refusal saying so. This module loads no zod: the lease arbiters import it.
 */
export function readRefusal(status: number, body: SyncError | null): ServerRefusal {
  if (body !== null) return { status, error: body.error }
  return { status, error: { code: 'INTERNAL', message: `HTTP ${status} without a sync error body` } }
}

/** A refusal that retrying cannot fix: the daemon stops replicating until the attachment changes. */
export function isFatalRefusal(error: unknown): error is RefusalError {
  return (
    error instanceof SangamError && (error.wireCode === 'UNAUTHORIZED' || error.wireCode === 'CURSOR_AHEAD')
  )
}
