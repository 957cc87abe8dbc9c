/** `sangam deliveries --json` as the end-to-end tests read it: the ledger's rows and the turns started. */
export interface DeliveriesJson {
  deliveries: {
    messageId: string
    sessionId: string
    state: string
    channel: string | null
    reason: string | null
  }[]
  turns: {
    id: number
    sessionId: string
    channel: string
    state: string
    cause: string
    why: string
    messages: string[]
    pid: number | null
    exitCode: number | null
    detail: string | null
  }[]
}
