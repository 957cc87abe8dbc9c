import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'
import { systemRandom } from '../shared/random.ts'
import type { Db } from '../store/database.ts'
import { reconnectDelayMs } from '../sync/core/backoff.ts'
import { type Attachment, attachmentStamp, readAttachment } from '../sync/services/attachment.ts'
import type { Replicator } from '../sync/services/replicator.ts'
import type { SyncStatus } from '../sync/services/sync-status.ts'
import type { Service } from './service.ts'

export interface SyncServiceOptions {
  /** The project's data directory, where the attachment file appears when the replica is attached. */
  readonly projectDir: string
  /** Opens the connection replication writes on (its own, beside capture's). */
  readonly openDb: () => Db
  readonly human: string
  readonly clock: Clock
  readonly log: Logger
  readonly onStatus: (status: SyncStatus) => void
  /** In [0, 1): the jitter of reconnection delays. */
  readonly random?: (() => number) | undefined
  /** How often the attachment file is looked at (attached, detached, re-joined). */
  readonly attachmentPollMs?: number | undefined
}

/**
 * The daemon's replication service. It does nothing until the replica is attached (`init
 * --server`, `join`), then keeps one Replicator connected: when the connection ends or cannot be
 * made it waits (full-jitter backoff, reset by a connection that worked) and connects again from
 * the stored cursor and watermark. Capture goes on meanwhile; the outbox is the database, so
 * offline work is pushed on reconnect. A refusal retrying cannot fix (a wrong key) stops
 * replication until the attachment file changes. A changed attachment (a `join` while the daemon
 * runs) reconnects at once.
 */
export class SyncService implements Service {
  readonly id = 'sync'
  readonly #options: SyncServiceOptions
  readonly #log: Logger
  /** Its naps are the backoff between connections and the polls of the attachment file. */
  readonly #loop = new PeriodicLoop()
  #replicator: Replicator | null = null
  #settle: () => void = () => undefined
  readonly #settled = new Promise<void>((resolve) => {
    this.#settle = resolve
  })

  constructor(options: SyncServiceOptions) {
    this.#options = {
      ...options,
      onStatus: (status) => {
        const { type } = status
        if (type === 'sync-connected' || type === 'sync-offline' || type === 'sync-refused') this.#settle()
        options.onStatus(status)
      },
    }
    this.#log = options.log.child({ component: this.id })
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  async stop(): Promise<void> {
    const stopped = this.#loop.stop()
    this.#replicator?.end()
    await stopped
  }

  /**
   * Resolves once replication's start is over: connected, refused, unreachable, or nothing to
   * connect to (not attached), or stopped. The daemon's other start-up work waits for it.
   */
  settled(): Promise<void> {
    return this.#settled
  }

  /** Capture committed events: push them now rather than at the next poll. */
  nudge(): void {
    this.#replicator?.nudge()
  }

  async #run(): Promise<void> {
    const db = this.#options.openDb()
    try {
      let failures = 0
      while (!this.#loop.signal.aborted) {
        const stamp = attachmentStamp(this.#options.projectDir)
        const attachment = this.#readAttachment()
        if (attachment === null) {
          this.#settle()
          await this.#until(() => attachmentStamp(this.#options.projectDir) !== stamp)
          continue
        }
        const outcome = await this.#connect(db, attachment, stamp)
        if (this.#loop.signal.aborted) return
        if (outcome.kind === 'refused') {
          this.#options.onStatus({
            type: 'sync-refused',
            url: attachment.url,
            code: outcome.code,
            message: outcome.message,
          })
          await this.#until(() => attachmentStamp(this.#options.projectDir) !== stamp)
          failures = 0
          continue
        }
        if (outcome.kind === 'moved') continue
        failures = outcome.connected ? 0 : failures + 1
        const retryInMs = reconnectDelayMs(failures, (this.#options.random ?? systemRandom.fraction)())
        this.#options.onStatus({
          type: 'sync-offline',
          url: attachment.url,
          message: outcome.message,
          retryInMs,
          failures,
        })
        await this.#sleep(retryInMs)
      }
    } finally {
      this.#settle()
      db.close()
    }
  }

  async #connect(db: Db, attachment: Attachment, stamp: number | null): Promise<ConnectOutcome> {
    // Loaded at the first connection: the client (ws, the protocol's zod schemas) is most of what
    // `up` would load at start, and a replica that is not attached never needs it.
    const { isFatalRefusal, Replicator } = await import('../sync/services/replicator.ts')
    if (this.#loop.signal.aborted) return { kind: 'ended', connected: false, message: 'stopped' }
    let connected = false
    const replicator = new Replicator({
      db,
      attachment,
      human: this.#options.human,
      clock: this.#options.clock,
      log: this.#options.log,
      onStatus: (status) => {
        if (status.type === 'sync-connected') connected = true
        this.#options.onStatus(status)
      },
    })
    this.#replicator = replicator
    let moved = false
    const watch = setInterval(() => {
      if (attachmentStamp(this.#options.projectDir) === stamp) return
      moved = true
      replicator.end()
    }, this.#options.attachmentPollMs ?? 2000)
    try {
      await replicator.run()
      return moved ? { kind: 'moved' } : { kind: 'ended', connected, message: 'the connection closed' }
    } catch (error) {
      if (moved) return { kind: 'moved' }
      const message = (error as Error).message
      if (isFatalRefusal(error)) {
        return { kind: 'refused', code: String(error.wireCode), message }
      }
      this.#log.debug('sync connection failed', { error: message })
      return { kind: 'ended', connected, message }
    } finally {
      clearInterval(watch)
      this.#replicator = null
    }
  }

  #readAttachment(): Attachment | null {
    try {
      return readAttachment(this.#options.projectDir)
    } catch (error) {
      this.#log.warn('cannot read the team server attachment', { error: (error as Error).message })
      return null
    }
  }

  /** Waits until `changed()` holds (checked at the poll interval) or the service stops. */
  async #until(changed: () => boolean): Promise<void> {
    while (!this.#loop.signal.aborted && !changed()) await this.#sleep(this.#options.attachmentPollMs ?? 2000)
  }

  #sleep(ms: number): Promise<void> {
    return this.#loop.nap(ms)
  }
}

type ConnectOutcome =
  | { readonly kind: 'ended'; readonly connected: boolean; readonly message: string }
  | { readonly kind: 'refused'; readonly code: string; readonly message: string }
  /** The attachment changed under a live connection: reconnect at once, with the new one. */
  | { readonly kind: 'moved' }
