import { redactForWire, redactServedLease } from '../../core/secrets/wire-fields.ts'
import { type PushBudgetState, takePush } from '../../core/sync/backoff.ts'
import { planPush } from '../../core/sync/push-plan.ts'
import { sharedKinds } from '../../core/sync/share.ts'
import type { Actor } from '../../protocol/lease.ts'
import type { DownstreamMessage } from '../../protocol/sync/downstream.ts'
import type { SyncError } from '../../protocol/sync/error.ts'
import type { SyncLimits } from '../../protocol/sync/limits.ts'
import { type RecordDraft, recordDraftSchema, type SyncedRecord } from '../../protocol/sync/record.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import { NudgeableSleep } from '../../shared/nudgeable-sleep.ts'
import type { Db } from '../../store/database.ts'
import { type ApplyOutcome, RecordApplier } from '../../store/sync/inbound.ts'
import { replaceMirror } from '../../store/sync/lease-mirror.ts'
import { OutboxReader } from '../../store/sync/outbox.ts'
import { acknowledgeRecords, type QueuedRecord, queuedRecords } from '../../store/sync/record-outbox.ts'
import {
  readSyncState,
  type SyncOrigin,
  startSyncState,
  writePresence,
  writePushedAt,
  writePushedSeq,
} from '../../store/sync/state-table.ts'
import type { Attachment } from './attachment.ts'
import { type SyncAnswer, SyncHttpClient } from './http-client.ts'
import { eventDraft } from './record-draft.ts'
import { refusalError } from './refusal.ts'
import { readSyncSettings } from './settings.ts'
import { SyncSocket } from './socket.ts'

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
/** The request envelope around a push's records (`{"clientId":…,"records":[…]}`), with room to spare. */
const pushEnvelopeBytes = 1024
const presenceRefreshMs = 60_000
/** How often a project at its storage budget tries a push again (a raised budget restarts the server, which reconnects at once). */
const quotaRetryMs = 60_000

/**
 * One connection's worth of replication, both ways. It catches up over HTTP (pages of 1,000),
 * replaces the lease mirror with the server's live leases, subscribes on a WebSocket from its
 * cursor and then, until the socket drops: applies every record in gseq order (a hole means
 * resubscribe from the cursor), and pushes the outbox whenever something new may be in it. A
 * record leaves the outbox only once acknowledged, and the cursor moves only with the records it
 * covers, so a drop at any moment loses and repeats nothing. `run` resolves when the connection
 * ends and throws when it could not start or the server refused us.
 */
export class Replicator {
  readonly #options: ReplicatorOptions
  readonly #log: Logger
  readonly #origin: SyncOrigin
  readonly #applier: RecordApplier
  readonly #outbox: OutboxReader
  readonly #actor: Actor
  readonly #ended = new AbortController()
  #socket: SyncSocket | null = null
  readonly #nap = new NudgeableSleep()
  #awaitingWelcome = true
  #failure: unknown = null
  /** A push was refused QUOTA_EXCEEDED and none has been taken since. */
  #atBudget = false

  constructor(options: ReplicatorOptions) {
    this.#options = options
    this.#log = options.log.child({ component: 'sync', server: options.attachment.url })
    this.#origin = { serverUrl: options.attachment.url, projectId: options.attachment.projectId }
    this.#applier = new RecordApplier(options.db, this.#origin)
    this.#outbox = new OutboxReader(options.db)
    this.#actor = { human: options.human, vendor: null, sessionId: null }
  }

  /** Something new may be in the outbox (capture committed, a note was written). */
  nudge(): void {
    this.#nap.nudge()
  }

  /** Ends the connection; a request in flight is abandoned (resent on the next connection, ids dedupe it). */
  end(): void {
    this.#ended.abort()
    this.#nap.nudge()
  }

  async run(): Promise<void> {
    const { attachment, db, clock } = this.#options
    const http = new SyncHttpClient(attachment, { signal: this.#ended.signal, timeoutMs: 30_000 })
    try {
      const { limits } = await http.health()
      startSyncState(db, attachment.url, attachment.projectId, clock.now())
      await this.#catchUp(http)
      await this.#snapshotLeases(http)
      await this.#subscribe()
      const presence = setInterval(() => void this.#refreshPresence(http), presenceRefreshMs)
      try {
        await this.#pushLoop(http, limits)
      } catch (error) {
        // A push cut short because the connection ended is resent on the next one; ids dedupe it.
        if (!this.#ended.signal.aborted) throw error
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
      if (!page.hasMore || this.#ended.signal.aborted) return
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

  async #pushLoop(http: SyncHttpClient, limits: SyncLimits): Promise<void> {
    let budget: PushBudgetState | null = null
    let maxRecords = limits.maxRecordsPerPush
    let recheckAt: number | null = null
    while (!this.#ended.signal.aborted) {
      const pace = takePush(budget, this.#options.clock.now(), limits.pushesPerSecond)
      if (pace.waitMs > 0) await this.#sleep(pace.waitMs)
      const pushed = await this.#pushOnce(http, limits, maxRecords)
      if (pushed.kind === 'sent') {
        budget = pace.next
        maxRecords = limits.maxRecordsPerPush
        continue
      }
      if (pushed.kind === 'shrink') {
        maxRecords = pushed.maxRecords
        continue
      }
      if (pushed.kind === 'wait') {
        await this.#sleep(pushed.ms)
        continue
      }
      recheckAt = pushed.recheckAt
      const poll = this.#options.pollMs ?? 250
      const until =
        recheckAt === null ? poll : Math.min(poll, Math.max(0, recheckAt - this.#options.clock.now()))
      await this.#idle(until)
    }
  }

  async #pushOnce(http: SyncHttpClient, limits: SyncLimits, maxRecords: number): Promise<PushStep> {
    const { db, clock, attachment } = this.#options
    const kinds = sharedKinds(readSyncSettings(db))
    const watermark = readSyncState(db)?.pushedSeq ?? 0
    const page = this.#outbox.read(watermark, kinds, maxRecords)
    const maxBytes = limits.maxBodyBytes - pushEnvelopeBytes
    const drafts = page.events.map((entry) => eventDraft(entry.event, maxBytes))
    const plan = planPush(
      page.events.map((entry, index) => ({
        seq: entry.event.seq,
        bytes: drafts[index]?.bytes ?? 0,
        joinable: entry.joinable,
        closed: entry.closed,
        at: Date.parse(entry.event.at),
      })),
      clock.now(),
      { maxRecords, maxBytes },
    )
    if (plan.take === 0) {
      if (page.events.length === 0 && page.scannedTo > watermark)
        writePushedSeq(db, this.#origin, page.scannedTo, clock.now())
      // Events first (the event table is their outbox); the room's records when no event is due.
      const queued = await this.#pushQueued(http, maxRecords, maxBytes)
      return queued ?? { kind: 'idle', recheckAt: plan.recheckAt }
    }
    const sent = drafts.slice(0, plan.take).map((sized) => sized.draft)
    const everything = plan.take === page.events.length && plan.recheckAt === null
    const upTo = everything ? page.scannedTo : (page.events[plan.take - 1]?.event.seq ?? watermark)
    const answer = await http.push({ clientId: attachment.clientId, records: sent })
    if (answer.ok) {
      this.#atBudget = false
      writePushedSeq(db, this.#origin, upTo, clock.now())
      writePushedAt(db, this.#origin, clock.now())
      this.#options.onStatus({ type: 'sync-pushed', records: sent.length, headGseq: answer.value.headGseq })
      return { kind: 'sent' }
    }
    const { code, message } = answer.error
    switch (code) {
      case 'RATE_LIMITED': {
        const ms = answer.error.retryAfterMs ?? 1000
        this.#log.info('push rate limited by the server; sending it again', { retryAfterMs: ms })
        return { kind: 'wait', ms }
      }
      case 'TOO_MANY_RECORDS':
      case 'BODY_TOO_LARGE':
        return { kind: 'shrink', maxRecords: Math.max(1, Math.floor(sent.length / 2)) }
      case 'QUOTA_EXCEEDED':
        return this.#atQuota(answer.error)
      case 'INVALID_REQUEST': {
        if (sent.length > 1) return { kind: 'shrink', maxRecords: 1 }
        // One record the server will never take must not hold up every record after it.
        this.#log.warn('the sync server refused a record; it stays on this machine', {
          id: sent[0]?.id,
          message,
        })
        writePushedSeq(db, this.#origin, page.events[0]?.event.seq ?? watermark, clock.now())
        return { kind: 'sent' }
      }
      default:
        throw refusalError(answer, { url: attachment.url })
    }
  }

  /**
   * Pushes drafts waiting in `record_outbox` (room messages, threads, presence, options), oldest
   * first, and forgets each once the server acknowledged it; null when none waits. The record id is
   * the push's idempotency key, so a push whose answer was lost is resent without a duplicate.
   */
  async #pushQueued(http: SyncHttpClient, maxRecords: number, maxBytes: number): Promise<PushStep | null> {
    const { db, attachment } = this.#options
    const queued = queuedRecords(db, maxRecords)
    if (queued.length === 0) return null
    const taken: QueuedRecord[] = []
    const records: RecordDraft[] = []
    let bytes = 0
    for (const entry of queued) {
      const parsed = recordDraftSchema.safeParse(entry.draft)
      if (!parsed.success) {
        // A draft this version cannot vouch for never leaves; its local record stays.
        this.#log.warn('a queued record is not a valid draft; it stays on this machine', {
          id: entry.id,
          message: parsed.error.message,
        })
        acknowledgeRecords(db, [entry])
        continue
      }
      // The write redacted its context and refused typed secrets; what a hook queued (a session's
      // branch and worktree) is redacted here, and a secret left in a typed field keeps it back.
      const checked = redactForWire(parsed.data.type, parsed.data)
      if (checked.refused !== null) {
        this.#log.warn('a queued record holds a secret; it stays on this machine', {
          id: entry.id,
          field: checked.refused.field.label,
          kinds: checked.refused.kinds,
        })
        acknowledgeRecords(db, [entry])
        continue
      }
      const size = Buffer.byteLength(JSON.stringify(checked.value))
      if (taken.length > 0 && bytes + size > maxBytes) break
      taken.push(entry)
      records.push(checked.value)
      bytes += size
    }
    if (records.length === 0) return { kind: 'sent' }
    const answer = await http.push({ clientId: attachment.clientId, records })
    if (answer.ok) {
      this.#atBudget = false
      acknowledgeRecords(db, taken)
      writePushedAt(db, this.#origin, this.#options.clock.now())
      this.#options.onStatus({
        type: 'sync-pushed',
        records: records.length,
        headGseq: answer.value.headGseq,
      })
      return { kind: 'sent' }
    }
    const { code, message } = answer.error
    switch (code) {
      case 'RATE_LIMITED':
        return { kind: 'wait', ms: answer.error.retryAfterMs ?? 1000 }
      case 'TOO_MANY_RECORDS':
      case 'BODY_TOO_LARGE':
        return { kind: 'shrink', maxRecords: Math.max(1, Math.floor(records.length / 2)) }
      case 'QUOTA_EXCEEDED':
        return this.#atQuota(answer.error)
      case 'INVALID_REQUEST': {
        if (records.length > 1) return { kind: 'shrink', maxRecords: 1 }
        this.#log.warn('the sync server refused a record; it stays on this machine', {
          id: taken[0]?.id,
          message,
        })
        acknowledgeRecords(db, taken)
        return { kind: 'sent' }
      }
      default:
        throw refusalError(answer, { url: attachment.url })
    }
  }

  /**
   * The server refused a push for the project's storage budget: nothing of it was written and
   * nothing leaves the outbox. Said once per stretch at the budget (the daemon's status line and
   * log); pushes are tried again every `quotaRetryMs` while records keep arriving.
   */
  #atQuota(error: SyncError['error']): PushStep {
    if (!this.#atBudget) {
      this.#atBudget = true
      const status: SyncStatus = {
        type: 'sync-quota',
        url: this.#options.attachment.url,
        usedBytes: error.usedBytes ?? null,
        limitBytes: error.limit ?? null,
        message: error.message,
        retryInMs: quotaRetryMs,
      }
      this.#log.debug("the team server is at this project's storage budget; pushes wait in the outbox", {
        usedBytes: status.usedBytes,
        limitBytes: status.limitBytes,
      })
      this.#options.onStatus(status)
    }
    return { kind: 'wait', ms: quotaRetryMs }
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

  /** Waits `ms`, or less when nudged or ended. */
  #idle(ms: number): Promise<void> {
    return this.#nap.sleep(ms, this.#ended.signal)
  }

  /** Waits `ms` whatever happens, unless ended (pacing and retry delays are not cut short by nudges). */
  #sleep(ms: number): Promise<void> {
    if (this.#ended.signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms)
      this.#ended.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer)
          resolve()
        },
        { once: true },
      )
    })
  }
}

type PushStep =
  | { readonly kind: 'sent' }
  | { readonly kind: 'idle'; readonly recheckAt: number | null }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'shrink'; readonly maxRecords: number }

function expect<T>(answer: SyncAnswer<T>, url: string): T {
  if (answer.ok) return answer.value
  throw refusalError(answer, { url })
}

/** The daemon's sync service, which loads this module on demand, asks it which refusals are final. */
export { isFatalRefusal } from './refusal.ts'
