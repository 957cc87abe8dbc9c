/**
 * The one error type of every sangam process. Expected outcomes (a lease conflict, an empty search)
 * are return values; a SangamError is for input we refuse and I/O we cannot do. Its `code` is a
 * closed set, and `cli/exit-codes.ts` is the only place codes become process exit codes.
 */
export const ErrorCode = {
  /** The command line itself is wrong (unknown flag, bad value). */
  Usage: 'USAGE',
  /** Input that parses but makes no sense (a malformed --since, an empty note). */
  InvalidInput: 'INVALID_INPUT',
  /** The current directory is not inside a Git repository. */
  NotARepository: 'NOT_A_REPOSITORY',
  /** The data directory is missing and cannot be created, or is not writable. */
  DataDirUnusable: 'DATA_DIR_UNUSABLE',
  /** Another process holds the database write lock past our busy timeout. */
  StoreBusy: 'STORE_BUSY',
  /**
   * The database exists but was written by a newer sangam, or is not a sangam database; or this
   * Node.js has no store for it (node:sqlite older than the one sangam needs).
   */
  StoreIncompatible: 'STORE_INCOMPATIBLE',
  /** Something asked for by id does not exist (an event id, a session). */
  NotFound: 'NOT_FOUND',
  /** Another `sangam up` already runs for this project on this machine. */
  DaemonRunning: 'DAEMON_RUNNING',
  /** A lease could not be granted (held by another actor). */
  LeaseConflict: 'LEASE_CONFLICT',
  /** An arbitrated operation could not be confirmed (server unreachable). */
  Unconfirmed: 'UNCONFIRMED',
  /** A git command failed in a way the caller did not expect. */
  GitFailed: 'GIT_FAILED',
  /** The sync server refused us or could not be reached. */
  ServerRefused: 'SERVER_REFUSED',
  /**
   * A program sangam runs is not installed, or could not be started: a vendor agent CLI (claude,
   * codex) delivery needs, or the Workers runtime `serve` needs (`next` says how to install it).
   */
  VendorCliUnavailable: 'VENDOR_CLI_UNAVAILABLE',
  /** A live session's endpoint (the app-server socket `sangam codex` started) is gone or refused a turn. */
  SessionUnreachable: 'SESSION_UNREACHABLE',
  /**
   * `lane`, `sync` or `delete` refused to move anything (the integration lock is busy, the report is
   * missing…); `wireCode` names the refusal (lanes/core/lane-refusal.ts) and `next` what to do.
   */
  LaneRefused: 'LANE_REFUSED',
  /** A bug: an invariant broke. */
  Internal: 'INTERNAL',
} as const
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

export interface SangamErrorOptions<WireCode extends string> extends ErrorOptions {
  /** The code of the refusal this error reports, when another party refused us (the sync server). */
  readonly wireCode?: WireCode
  /** What the person or agent should do next (a command to run, who must act). */
  readonly next?: string | undefined
}

/**
 * `WireCode` types `wireCode`: the sync client's errors are `SangamError<SyncErrorCode>`
 * (`sync/services/refusal.ts`, the one place a server refusal becomes a SangamError).
 */
export class SangamError<WireCode extends string = string> extends Error {
  readonly code: ErrorCode
  readonly data: unknown
  /** The refusing party's own code (for the sync server: `sync/protocol/error.ts`); null if none. */
  readonly wireCode: WireCode | null
  /** What to do next, when the refusal says (`--json` carries it as `error.next`); null if not. */
  readonly next: string | null

  constructor(code: ErrorCode, message: string, data?: unknown, options?: SangamErrorOptions<WireCode>) {
    super(message, options)
    this.name = 'SangamError'
    this.code = code
    this.data = data
    this.wireCode = options?.wireCode ?? null
    this.next = options?.next ?? null
  }
}

export function isSangamError(error: unknown): error is SangamError {
  return error instanceof SangamError
}
