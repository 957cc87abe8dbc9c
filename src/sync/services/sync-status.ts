/** What replication reports as it goes (`sangam up --json` prints one per line). */
export type SyncStatus =
  | {
      readonly type: 'sync-connected'
      readonly url: string
      readonly cursor: number
      readonly headGseq: number
    }
  | { readonly type: 'sync-pushed'; readonly records: number; readonly headGseq: number }
  | {
      readonly type: 'sync-applied'
      readonly records: number
      readonly events: number
      /** Other machines' worktree states among them: the daemon redraws its overlap picture. */
      readonly worktreeStates: number
      readonly cursor: number
    }
  /** The server could not be reached or the connection dropped; the daemon tries again. */
  | {
      readonly type: 'sync-offline'
      readonly url: string
      readonly message: string
      readonly retryInMs: number
      /** Attempts in a row that failed to connect; 0 when a connection that worked just ended. */
      readonly failures: number
    }
  /** The server said no for good (wrong key, cursor ahead): nothing more until the attachment changes. */
  | { readonly type: 'sync-refused'; readonly url: string; readonly code: string; readonly message: string }
  /**
   * The project is at its storage budget on the server (QUOTA_EXCEEDED): nothing more is pushed
   * until its operator raises it. Records still arrive; the outbox keeps everything and is pushed
   * once the server takes it (tried again every `retryInMs`, and at every reconnection).
   */
  | {
      readonly type: 'sync-quota'
      readonly url: string
      readonly usedBytes: number | null
      readonly limitBytes: number | null
      readonly message: string
      readonly retryInMs: number
    }
