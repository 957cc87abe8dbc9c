/**
 * `sangam deliveries --json` as the end-to-end tests and the real-CLI scenarios read it: the
 * ledger's rows and the turns started (docs/cli.md has the whole shape).
 */
export interface DeliveriesJson {
  deliveries: {
    messageId: string
    sessionId: string
    state: string
    channel: string | null
    reason: string | null
    senderKind: string
    turnId: number | null
  }[]
  turns: {
    id: number
    vendor: string
    sessionId: string
    channel: string
    state: string
    cause: string
    why: string
    messages: string[]
    pid: number | null
    worktree: string | null
    logFile: string | null
    exitCode: number | null
    detail: string | null
    startedAt: string
    endedAt: string | null
  }[]
}
