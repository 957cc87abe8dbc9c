import type { Actor } from '../../identity/protocol/actor.ts'
import { replaceMirror } from '../../leases/store/lease-mirror.ts'
import { redactServedLease } from '../../secrets/core/wire-fields.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import { PeriodicLoop } from '../../shared/periodic-loop.ts'
import type { Db } from '../../store/database.ts'
import type { DownstreamMessage } from '../protocol/downstream.ts'
import type { SyncedRecord } from '../protocol/record.ts'
import { type ApplyOutcome, RecordApplier } from '../store/inbound.ts'
import { readSyncState, type SyncOrigin, startSyncState, writePresence } from '../store/state-table.ts'
import type { Attachment } from './attachment.ts'
import { type SyncAnswer, SyncHttpClient } from './http-client.ts'
import { Pusher } from './pusher.ts'
import { refusalError } from './refusal.ts'
import { SyncSocket } from './socket.ts'
import type { SyncStatus } from './sync-status.ts'

export interface ReplicatorOptions {
  /** A connection of its own: capture commits on another, and its bulk transactions must not swallow ours. */
  readonly db: Db
  readonly attachment: Attachment
  /** The human at this machine: the daemon's actor on the socket (presence). */
  readonly human: string
  readonly clock: Clock
  readonly log: Logger
  readonly onStatus: (status: SyncStatus) => void
  /** How often the outbox is looked at when nothing nudged (notes and claims come from other processes). */
  readonly pollMs?: number | undefined
}

/** Records per pull page while catching up. */
const pullPage = 1000
const presenceRefreshMs = 60_000

/**
 * One connection's worth of replication, both ways. It catches up over HTTP (pages of 1,000),
 * replaces the lease mirror with the server's live leases, subscribes on a WebSocket from its
 * cursor and then, until the socket drops: applies every record in gseq order (a hole means
 * resubscribe from the cursor), and pushes the outbox (pusher.ts) whenever something new may be in it. A
 * record leaves the outbox only once acknowledged, and the cursor moves only with the records it
 * covers, so a drop at any moment loses and repeats nothing. `run` resolves when the connection
 * ends and throws when it could not start or the server refused us.
 */
export class Replicator {
  readonly #options: ReplicatorOptions
  readonly #log: Logger
  readonly #origin: SyncOrigin
  readonly #applier: RecordApplier
  readonly #actor: Actor
  /** The connection's life: the pusher's loop, its naps, and the signal that ends it. */
  readonly #connection = new PeriodicLoop()
  #socket: SyncSocket | null = null
  #awaitingWelcome = true
  #failure: unknown = null

  constructor(options: ReplicatorOptions) {
    this.#options = options
    this.#log = options.log.child({ component: 'sync', server: options.attachment.url })
    this.#origin = { serverUrl: options.attachment.url, projectId: options.attachment.projectId }
    this.#applier = new RecordApplier(options.db, this.#origin)
    this.#actor = { human: options.human, vendor: null, sessionId: null }
  }

  /** Something new may be in the outbox (capture committed, a note was written). */
  nudge(): void {
    this.#connection.nudge()
  }

  /** Ends the connection; a request in flight is abandoned (resent on the next connection, ids dedupe it). */
  end(): void {
    void this.#connection.stop()
  }

  async run(): Promise<void> {
    const { attachment, db, clock } = this.#options
    const http = new SyncHttpClient(attachment, { signal: this.#connection.signal, timeoutMs: 30_000 })
    try {
      const { limits } = await http.health()
      startSyncState(db, attachment.url, attachment.projectId, clock.now())
      await this.#catchUp(http)
      await this.#snapshotLeases(http)
      await this.#subscribe()
      const presence = setInterval(() => void this.#refreshPresence(http), presenceRefreshMs)
      try {
        await new Pusher({
          ...this.#options,
          log: this.#log,
          origin: this.#origin,
          connection: this.#connection,
        }).run(http, limits)
      } catch (error) {
        // A push cut short because the connection ended is resent on the next one; ids dedupe it.
        if (!this.#connection.signal.aborted) throw error
      } finally {
        clearInterval(presence)
      }
      if (this.#failure !== null) throw this.#failure
    } finally {
      this.#socket?.close()
    }
  }

  async #catchUp(http: SyncHttpClient): Promise<void> {
    for (;;) {
      const cursor = this.#cursor()
      const page = expect(await http.pull(cursor, pullPage), this.#options.attachment.url)
      if (page.records.length > 0) this.#apply(page.records)
      if (!page.hasMore || this.#connection.signal.aborted) return
    }
  }

  async #snapshotLeases(http: SyncHttpClient): Promise<void> {
    const { leases, fencingToken } = expect(await http.leases(), this.#options.attachment.url)
    const { db } = this.#options
    db.transaction(() => replaceMirror(db, leases.map(redactServedLease), fencingToken)).immediate()
  }

  async #subscribe(): Promise<void> {
    const { attachment } = this.#options
    this.#socket = await SyncSocket.open(attachment, {
      log: this.#log,
      onMessage: (message) => this.#receive(message),
      onClose: (why) => {
        this.#log.info('sync socket closed', { why })
        this.end()
      },
    })
    this.#resubscribe()
  }

  #resubscribe(): void {
    this.#awaitingWelcome = true
    this.#socket?.send({
      type: 'subscribe',
      actor: this.#actor,
      clientId: this.#options.attachment.clientId,
      after: this.#cursor(),
    })
  }

  #receive(message: DownstreamMessage): void {
    try {
      switch (message.type) {
        case 'welcome':
          this.#awaitingWelcome = false
          writePresence(this.#options.db, message.presence, this.#options.clock.now())
          this.#options.onStatus({
            type: 'sync-connected',
            url: this.#options.attachment.url,
            cursor: this.#cursor(),
            headGseq: message.headGseq,
          })
          return
        case 'records':
          // Until the welcome of a resubscription, the socket may still carry the old delivery.
          if (this.#awaitingWelcome) return
          if (this.#apply(message.records).gapAfter !== null) this.#resubscribe()
          return
        case 'presence':
          writePresence(this.#options.db, message.presence, this.#options.clock.now())
          return
        case 'error':
          if (message.error.code === 'CURSOR_AHEAD')
            this.#fail(
              refusalError({ status: null, error: message.error }, { url: this.#options.attachment.url }),
            )
          else
            this.#log.warn('the sync server refused a message', {
              code: message.error.code,
              message: message.error.message,
            })
          return
        case 'pushed':
        case 'pong':
          return
      }
    } catch (error) {
      // The replica could not take the records (the database stayed locked): start over from the cursor.
      this.#fail(error)
    }
  }

  #apply(records: readonly SyncedRecord[]): ApplyOutcome {
    const outcome = this.#applier.apply(records, this.#options.clock.now())
    if (outcome.applied > 0) {
      this.#options.onStatus({
        type: 'sync-applied',
        records: outcome.applied,
        events: outcome.events,
        worktreeStates: outcome.worktreeStates,
        cursor: outcome.cursor,
      })
    }
    return outcome
  }

  async #refreshPresence(http: SyncHttpClient): Promise<void> {
    try {
      const answer = await http.presence()
      if (answer.ok) writePresence(this.#options.db, answer.value.presence, this.#options.clock.now())
    } catch (error) {
      this.#log.debug('presence refresh failed', { error: (error as Error).message })
    }
  }

  #cursor(): number {
    return readSyncState(this.#options.db)?.cursor ?? 0
  }

  #fail(error: unknown): void {
    this.#failure ??= error
    this.end()
  }
}

/** An answer's value, or the refusal as an error. */
function expect<T>(answer: SyncAnswer<T>, url: string): T {
  if (answer.ok) return answer.value
  throw refusalError(answer, { url })
}

/** The daemon's sync service, which loads this module on demand, asks it which refusals are final. */
export { isFatalRefusal } from './refusal.ts'
