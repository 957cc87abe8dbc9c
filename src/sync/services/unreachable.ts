import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * "The server gave no usable answer" (refused connection, timeout, a body that is not the
 * protocol), as opposed to a refusal, which is an answer. The daemon retries it; a claim reports it
 * unconfirmed. Its own module so that the lease arbiters can tell it apart without loading the
 * HTTP client and its schemas.
 */
export function unreachable(url: string, why: string, cause?: unknown): SangamError {
  return new SangamError(
    ErrorCode.ServerRefused,
    `could not reach the sync server at ${url}: ${why}`,
    { unreachable: true },
    { cause },
  )
}

export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof SangamError &&
    typeof error.data === 'object' &&
    error.data !== null &&
    (error.data as { unreachable?: unknown }).unreachable === true
  )
}
