/** Who holds the integration lock, since when, and the fencing token that names this tenure. */
export interface LockHolder {
  readonly lane: string
  readonly owner: string
  readonly task: string | null
  readonly since: number
  readonly heartbeatAt: number
  readonly token: number
  /** Held by a lane of another machine (the team lock): this machine cannot judge it orphaned. */
  readonly elsewhere?: boolean | undefined
}

/** An acquisition answer: granted (the holder is us) or refused (the holder is someone else). */
export type LockAnswer =
  | { readonly granted: true; readonly holder: LockHolder }
  | { readonly granted: false; readonly holder: LockHolder }

/** The one integration lock: local (the store) or arbitrated by the team server (fencing token). */
export interface IntegrationLock {
  acquire(input: { lane: string; owner: string; task: string | null }): Promise<LockAnswer>
  heartbeat(holder: LockHolder): Promise<boolean>
  release(holder: LockHolder): Promise<void>
  current(): Promise<LockHolder | null>
  takeOver(input: { lane: string; owner: string; reason: string }): Promise<LockHolder>
}
