import { type ErrorCode, isSangamError } from '../shared/sangam-error.ts'

/** The only place error codes become process exit codes. Documented in docs/cli.md. */
export const exitCodes: Record<ErrorCode, number> = {
  INTERNAL: 1,
  USAGE: 2,
  INVALID_INPUT: 2,
  NOT_A_REPOSITORY: 3,
  NOT_FOUND: 4,
  LEASE_CONFLICT: 5,
  UNCONFIRMED: 6,
  DATA_DIR_UNUSABLE: 7,
  STORE_INCOMPATIBLE: 7,
  STORE_BUSY: 8,
  DAEMON_RUNNING: 9,
  GIT_FAILED: 10,
  SERVER_REFUSED: 11,
  LANE_REFUSED: 12,
}

export function exitCodeFor(error: unknown): number {
  return isSangamError(error) ? exitCodes[error.code] : 1
}
