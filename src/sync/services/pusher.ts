import { setTimeout as delay } from 'node:timers/promises'
import { acknowledgeRecords, queuedRecords } from '../../records/store/record-outbox.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import type { PeriodicLoop } from '../../shared/periodic-loop.ts'
import type { Db } from '../../store/database.ts'
import { type PushBudgetState, takePush } from '../core/backoff.ts'
import { planPush } from '../core/push-plan.ts'
import { sharedKinds } from '../core/share.ts'
import type { SyncError } from '../protocol/error.ts'
import type { SyncLimits } from '../protocol/limits.ts'
import type { RecordDraft } from '../protocol/record.ts'
import { OutboxReader } from '../store/outbox.ts'
import { readSyncState, type SyncOrigin, writePushedAt, writePushedSeq } from '../store/state-table.ts'
import type { Attachment } from './attachment.ts'
import type { SyncHttpClient } from './http-client.ts'
import { afterRefusedPush, type PushStep } from './push-step.ts'
import { takeQueuedDrafts } from './queued-drafts.ts'
import { eventDraft } from './record-draft.ts'
import { refusalError } from './refusal.ts'
import { readSyncSettings } from './settings.ts'
import type { SyncStatus } from './sync-status.ts'

/** The request envelope around a push's records (`{"clientId":…,"records":[…]}`), with room to spare. */
const pushEnvelopeBytes = 1024
/** How often a project at its storage budget tries a push again (a raised budget restarts the server, which reconnects at once). */
const quotaRetryMs = 60_000

export interface PusherOptions {
  readonly db: Db
  readonly attachment: Attachment
  readonly clock: Clock
  readonly log: Logger
  readonly onStatus: (status: SyncStatus) => void
  /** How often the outbox is looked at when nothing nudged. */
  readonly pollMs?: number | undefined
  readonly origin: SyncOrigin
  /**
   * The connection: its stop ends the loop and cuts a wait short; it is nudged when something new
   * may be in the outbox, which cuts an idle wait short.
   */
  readonly connection: PeriodicLoop
}

/**
 * The outbound half of a connection: pushes the outbox (events, then queued records) whenever
 * something new may be in it, paced to the server's push rate, until the connection ends. A record
 * leaves the outbox only once acknowledged.
 */
export class Pusher {
  readonly #options: PusherOptions
  readonly #log: Logger
  readonly #origin: SyncOrigin
  readonly #outbox: OutboxReader
  readonly #signal: AbortSignal
  readonly #connection: PeriodicLoop
  /** A push was refused QUOTA_EXCEEDED and none has been taken since. */
  #atBudget = false

  constructor(options: PusherOptions) {
    this.#options = options
    this.#log = options.log
    this.#origin = options.origin
    this.#outbox = new OutboxReader(options.db)
    this.#signal = options.connection.signal
    this.#connection = options.connection
  }

  async run(http: SyncHttpClient, limits: SyncLimits): Promise<void> {
    let budget: PushBudgetState | null = null
    let maxRecords = limits.maxRecordsPerPush
    let recheckAt: number | null = null
    while (!this.#signal.aborted) {
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
    const { db, clock } = this.#options
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
    return await this.#send(http, sent, {
      taken: () => writePushedSeq(db, this.#origin, upTo, clock.now()),
      skipped: () => writePushedSeq(db, this.#origin, page.events[0]?.event.seq ?? watermark, clock.now()),
    })
  }

  /**
   * Pushes drafts waiting in `record_outbox` (room messages, threads, presence, options), oldest
   * first, and forgets each once the server acknowledged it; null when none waits. The record id is
   * the push's idempotency key, so a push whose answer was lost is resent without a duplicate.
   */
  async #pushQueued(http: SyncHttpClient, maxRecords: number, maxBytes: number): Promise<PushStep | null> {
    const { db } = this.#options
    const queued = queuedRecords(db, maxRecords)
    if (queued.length === 0) return null
    const { taken, records, kept } = takeQueuedDrafts(queued, maxBytes)
    for (const { entry, why, details } of kept)
      this.#log.warn(`a queued record ${why}; it stays on this machine`, { id: entry.id, ...details })
    if (kept.length > 0)
      acknowledgeRecords(
        db,
        kept.map(({ entry }) => entry),
      )
    if (records.length === 0) return { kind: 'sent' }
    return await this.#send(http, records, {
      taken: () => acknowledgeRecords(db, taken),
      skipped: () => acknowledgeRecords(db, taken),
    })
  }

  /**
   * One push. `done` takes its records out of the outbox: `taken` once the server acknowledged
   * them, `skipped` for the one record the server will never take (it stays on this machine and
   * must not hold up every record after it).
   */
  async #send(
    http: SyncHttpClient,
    records: RecordDraft[],
    done: { readonly taken: () => void; readonly skipped: () => void },
  ): Promise<PushStep> {
    const { db, clock, attachment } = this.#options
    const answer = await http.push({ clientId: attachment.clientId, records })
    if (answer.ok) {
      this.#atBudget = false
      done.taken()
      writePushedAt(db, this.#origin, clock.now())
      this.#options.onStatus({
        type: 'sync-pushed',
        records: records.length,
        headGseq: answer.value.headGseq,
      })
      return { kind: 'sent' }
    }
    const next = afterRefusedPush(answer.error, records.length)
    switch (next.kind) {
      case 'quota':
        return this.#atQuota(answer.error)
      case 'fatal':
        throw refusalError(answer, { url: attachment.url })
      case 'skip':
        this.#log.warn('the sync server refused a record; it stays on this machine', {
          id: records[0]?.id,
          message: answer.error.message,
        })
        done.skipped()
        return { kind: 'sent' }
      default:
        if (next.kind === 'wait')
          this.#log.info('push rate limited by the server; sending it again', { retryAfterMs: next.ms })
        return next
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

  /** Waits `ms`, or less when nudged or ended. */
  #idle(ms: number): Promise<void> {
    return this.#connection.nap(ms)
  }

  /** Waits `ms` whatever happens, unless ended (pacing and retry delays are not cut short by nudges). */
  async #sleep(ms: number): Promise<void> {
    await delay(ms, undefined, { signal: this.#signal }).catch(() => undefined)
  }
}
