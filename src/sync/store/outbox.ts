import type { EventKind } from '../../memory/protocol/event.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from '../../memory/store/event-table.ts'
import type { Db, Statement } from '../../store/db.ts'

/** A local event the team has not acknowledged yet, with what the push plan needs to know of it. */
export interface OutboxEvent {
  readonly event: StoredEvent
  /** It may still grow: a Claude assistant message, joined from several transcript lines. */
  readonly joinable: boolean
  /** A human turn or tool result was captured after it in the same transcript: it cannot grow. */
  readonly closed: boolean
}

export interface OutboxPage {
  readonly events: readonly OutboxEvent[]
  /**
   * How far the read looked: the seq of the last event returned, or, when the page is not full,
   * the newest seq in the database. Every local event of a shared kind up to here is in `events`,
   * so once they are all pushed the watermark may move here, past remote events and kinds that
   * are not shared.
   */
  readonly scannedTo: number
}

/**
 * The outbox is not a table: it is every event of this machine (`origin_gseq IS NULL`) of a shared
 * kind above the push watermark, in local order. Nothing is queued at capture, so capture stays
 * unaware of sync, and an outbox cannot drift from what is stored.
 */
export class OutboxReader {
  readonly #db: Db
  readonly #page: Statement
  readonly #maxSeq: Statement

  constructor(db: Db) {
    this.#db = db
    this.#page = db.prepare(/*sql*/ `
      SELECT q.*, e2.join_key IS NOT NULL AS joinable,
             e2.join_key IS NULL OR EXISTS (
               SELECT 1 FROM event later
               WHERE later.source_file_id = e2.source_file_id AND later.byte_offset > e2.byte_offset
                 AND later.kind IN ('human', 'tool_output')
             ) AS closed
      FROM (${eventSelect}
            WHERE e.seq > @after AND e.origin_gseq IS NULL AND e.kind IN (SELECT value FROM json_each(@kinds))
            ORDER BY e.seq LIMIT @limit) q
      JOIN event e2 ON e2.seq = q.seq
      ORDER BY q.seq`)
    this.#maxSeq = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM event')
  }

  /** Up to `limit` events after `after`, read in one snapshot with the newest seq. */
  read(after: number, kinds: readonly EventKind[], limit: number): OutboxPage {
    return this.#db
      .transaction(() => {
        const rows = this.#page.all({ after, kinds: JSON.stringify(kinds), limit }) as RawOutboxRow[]
        const events = rows.map((row) => ({
          event: toStoredEvent(row),
          joinable: row.joinable === 1,
          closed: row.closed === 1,
        }))
        const last = events.at(-1)?.event.seq
        const scannedTo =
          events.length === limit && last !== undefined ? last : (this.#maxSeq.get() as { seq: number }).seq
        return { events, scannedTo: Math.max(scannedTo, after) }
      })
      .deferred()
  }

  /** How many local events of the shared kinds wait above `after` (for `connection --json`). */
  count(after: number, kinds: readonly EventKind[]): number {
    const row = this.#db
      .prepare(
        /*sql*/ `SELECT count(*) AS n FROM event
                 WHERE seq > ? AND origin_gseq IS NULL AND kind IN (SELECT value FROM json_each(?))`,
      )
      .get(after, JSON.stringify(kinds)) as { n: number }
    return row.n
  }
}

interface RawOutboxRow {
  readonly joinable: number
  readonly closed: number
}
