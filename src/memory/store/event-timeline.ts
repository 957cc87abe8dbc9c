import type { Db, Statement } from '../../store/db.ts'
import type { EventKind, Vendor } from '../protocol/event.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from './event-table.ts'

/** The dashboard's timeline filters, applied inside the SQL so that a page counts only what passes. */
export interface TimelineFilters {
  readonly sessionId?: string | undefined
  readonly author?: string | undefined
  readonly vendor?: Vendor | undefined
  readonly kinds?: readonly EventKind[] | undefined
  /** An absolute directory: events whose `cwd` is it or below it. */
  readonly cwdUnder?: string | undefined
}

/** Where a page of the timeline starts: strictly older than this event (by time, then storage order). */
export interface TimelinePosition {
  readonly at: number
  readonly seq: number
}

/** The newest event of a session (the dashboard's "what it last did"). */
export interface LatestActivity {
  readonly at: number
  readonly kind: EventKind
  readonly text: string
}

const hourMs = 60 * 60 * 1000

/**
 * The reads of the dashboard's timeline and charts. Every one walks `event_by_at` (or
 * `event_by_session`) from the newest end, so its cost follows the page or the period asked for,
 * not the size of the store.
 */
export class EventTimeline {
  readonly #page: Statement
  readonly #latestOfSession: Statement
  readonly #latestHumanTurn: Statement
  readonly #perHour: Statement

  constructor(db: Db) {
    this.#page = db.prepare(/*sql*/ `
      ${eventSelect}
      WHERE (@sessionId IS NULL OR e.session_id = @sessionId)
        AND (@author IS NULL OR e.author = @author)
        AND (@vendor IS NULL OR e.vendor = @vendor)
        AND (@kinds IS NULL OR e.kind IN (SELECT value FROM json_each(@kinds)))
        AND (@cwdUnder IS NULL OR e.cwd = @cwdUnder OR substr(e.cwd, 1, length(@cwdUnder) + 1) = @cwdUnder || '/')
        AND (@beforeAt IS NULL OR e.at < @beforeAt OR (e.at = @beforeAt AND e.seq < @beforeSeq))
      ORDER BY e.at DESC, e.seq DESC
      LIMIT @limit`)
    this.#latestOfSession = db.prepare(/*sql*/ `
      SELECT e.at, e.kind, substr(e.text, 1, @chars) AS text FROM event e INDEXED BY event_by_session
      WHERE e.session_id = @sessionId ORDER BY e.at DESC, e.seq DESC LIMIT 1`)
    this.#latestHumanTurn = db.prepare(/*sql*/ `
      SELECT e.at, e.kind, substr(e.text, 1, @chars) AS text FROM event e INDEXED BY event_by_at
      WHERE e.author = @author AND e.kind = 'human' AND e.at >= @since
      ORDER BY e.at DESC, e.seq DESC LIMIT 1`)
    // @since arrives as a REAL (node:sqlite binds JS numbers so): without the CAST the hour is
    // fractional and falls between the chart's buckets.
    this.#perHour = db.prepare(/*sql*/ `
      SELECT e.session_id AS sessionId, e.vendor, CAST((e.at - @since) / ${hourMs} AS INTEGER) AS hour, count(*) AS count
      FROM event e INDEXED BY event_by_at
      WHERE e.at >= @since AND e.at < @until
      GROUP BY e.session_id, hour`)
  }

  /** Up to `limit` events that pass `filters`, newest first, older than `before` when given. */
  page(filters: TimelineFilters, before: TimelinePosition | null, limit: number): StoredEvent[] {
    return this.#page
      .all({
        sessionId: filters.sessionId ?? null,
        author: filters.author ?? null,
        vendor: filters.vendor ?? null,
        kinds: filters.kinds === undefined ? null : JSON.stringify(filters.kinds),
        cwdUnder: filters.cwdUnder ?? null,
        beforeAt: before?.at ?? null,
        beforeSeq: before?.seq ?? null,
        limit,
      })
      .map(toStoredEvent)
  }

  /** The session's newest event here, its text cut to `chars`; null when it has none. */
  latestOfSession(sessionId: string, chars: number): LatestActivity | null {
    return (this.#latestOfSession.get({ sessionId, chars }) as LatestActivity | undefined) ?? null
  }

  /** The human's newest turn since `since`, its text cut to `chars`; null when none. */
  latestHumanTurn(author: string, since: number, chars: number): LatestActivity | null {
    return (this.#latestHumanTurn.get({ author, since, chars }) as LatestActivity | undefined) ?? null
  }

  /**
   * Events per session and hour in `[since, until)`, hour 0 starting at `since`: one row per
   * session and hour that had any.
   */
  perHour(
    since: number,
    until: number,
  ): {
    readonly sessionId: string
    readonly vendor: Vendor
    readonly hour: number
    readonly count: number
  }[] {
    return this.#perHour.all({ since, until }) as {
      sessionId: string
      vendor: Vendor
      hour: number
      count: number
    }[]
  }
}
