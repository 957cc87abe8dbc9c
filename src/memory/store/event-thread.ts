import type { Db, Statement } from '../../store/db.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from './event-table.ts'

/** A transcript file holding events of a session. */
export interface SessionFile {
  readonly id: number
  readonly path: string
  readonly events: number
}

/** A position in one transcript file: events of a line share the offset and differ by part. */
export interface FilePosition {
  readonly fileId: number
  readonly offset: number
  readonly part: number
}

/**
 * The reads behind `thread`: one moment of a session expanded to its human turn. Inside one file,
 * byte offset then part is the true order of events (timestamps tie, and clocks drift); across
 * files (a Claude subagent's transcript, notes), time is all there is.
 */
export class ThreadQueries {
  readonly #files: Statement
  readonly #humanAtOrBefore: Statement
  readonly #humanBeforeTime: Statement
  readonly #humanAfter: Statement
  readonly #range: Statement
  readonly #fileBetween: Statement
  readonly #notesBetween: Statement

  constructor(db: Db) {
    this.#files = db.prepare(/*sql*/ `
      SELECT f.id, f.path, count(*) AS events FROM event e JOIN source_file f ON f.id = e.source_file_id
      WHERE e.session_id = ? GROUP BY f.id ORDER BY events DESC, f.id`)
    const afterOrAt = '(e.byte_offset > @offset OR (e.byte_offset = @offset AND e.part >= @part))'
    const beforeOrAt = '(e.byte_offset < @offset OR (e.byte_offset = @offset AND e.part <= @part))'
    this.#humanAtOrBefore = db.prepare(/*sql*/ `${eventSelect}
      WHERE e.source_file_id = @fileId AND e.kind = 'human' AND ${beforeOrAt}
      ORDER BY e.byte_offset DESC, e.part DESC LIMIT 1`)
    this.#humanBeforeTime = db.prepare(/*sql*/ `${eventSelect}
      WHERE e.source_file_id = @fileId AND e.kind = 'human' AND e.at <= @at
      ORDER BY e.at DESC, e.byte_offset DESC, e.part DESC LIMIT 1`)
    this.#humanAfter = db.prepare(/*sql*/ `${eventSelect}
      WHERE e.source_file_id = @fileId AND e.kind = 'human' AND ${afterOrAt} AND NOT (e.byte_offset = @offset AND e.part = @part)
      ORDER BY e.byte_offset, e.part LIMIT 1`)
    this.#range = db.prepare(/*sql*/ `${eventSelect}
      WHERE e.source_file_id = @fileId AND ${afterOrAt}
        AND (@endOffset IS NULL OR e.byte_offset < @endOffset OR (e.byte_offset = @endOffset AND e.part < @endPart))
      ORDER BY e.byte_offset, e.part LIMIT @limit`)
    this.#fileBetween = db.prepare(/*sql*/ `${eventSelect}
      WHERE e.source_file_id = @fileId AND e.at >= @from AND (@to IS NULL OR e.at < @to)
      ORDER BY e.byte_offset, e.part LIMIT @limit`)
    this.#notesBetween = db.prepare(/*sql*/ `${eventSelect}
      WHERE e.session_id = @sessionId AND e.kind = 'note' AND e.at >= @from AND (@to IS NULL OR e.at < @to)
      ORDER BY e.at, e.seq LIMIT @limit`)
  }

  /** The session's transcript files, the one with the most events first. */
  sessionFiles(sessionId: string): SessionFile[] {
    return this.#files.all(sessionId) as SessionFile[]
  }

  /** The human event at or before a position of a file. */
  humanAtOrBefore(position: FilePosition): StoredEvent | null {
    return one(this.#humanAtOrBefore.get(position))
  }

  /** The latest human event of a file at or before a time (for events from other files). */
  humanBeforeTime(fileId: number, at: number): StoredEvent | null {
    return one(this.#humanBeforeTime.get({ fileId, at }))
  }

  /** The first human event of a file after a position. */
  humanAfter(position: FilePosition): StoredEvent | null {
    return one(this.#humanAfter.get(position))
  }

  /** Events of a file from `start` (inclusive) to `end` (exclusive; null for the end of the file). */
  range(start: FilePosition, end: FilePosition | null, limit: number): StoredEvent[] {
    return many(
      this.#range.all({ ...start, endOffset: end?.offset ?? null, endPart: end?.part ?? null, limit }),
    )
  }

  /** Events of a file whose time is in [from, to). */
  fileBetween(fileId: number, from: number, to: number | null, limit: number): StoredEvent[] {
    return many(this.#fileBetween.all({ fileId, from, to, limit }))
  }

  /** Notes written during a session, in [from, to). */
  notesBetween(sessionId: string, from: number, to: number | null, limit: number): StoredEvent[] {
    return many(this.#notesBetween.all({ sessionId, from, to, limit }))
  }
}

function one(raw: unknown): StoredEvent | null {
  return raw === undefined ? null : toStoredEvent(raw)
}

function many(rows: unknown[]): StoredEvent[] {
  return rows.map(toStoredEvent)
}
