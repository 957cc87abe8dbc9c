import { basename } from 'node:path'
import type { Db, Statement } from '../../store/db.ts'
import { deleteEventsOfSourceFile, type EventInsert, EventWriter } from './event-table.ts'
import { rebuildSessions, SessionWriter, sessionTouchOf } from './session-table.ts'
import {
  progressParameters,
  resetSourceFile,
  type SourceFileProgress,
  writeProgressSql,
} from './source-file-table.ts'
import { deleteUnknownShapes } from './unknown-shape-table.ts'

/** An unknown record shape met at `offset`, recorded for doctor. */
export interface UnknownShapeSeen {
  readonly cliVersion: string | null
  readonly recordType: string
  readonly signature: string
  readonly offset: number
}

/**
 * Everything one read of a file produced, committed as one transaction: the events, the file's new
 * offset, fingerprint, reader state and line counters, and the unknown shapes. Either all of it is
 * stored or none of it, which is what makes capture exactly-once across a crash.
 */
export interface CaptureBatch {
  readonly sourceFileId: number
  /** Where the read started; the commit is refused if another process moved the file on since. */
  readonly fromOffset: number
  readonly fromFingerprint: string
  /** The file was rewritten: forget everything read from it before, in the same transaction. */
  readonly reset: boolean
  /** In file order; an event whose joinKey this file already has is appended to that event. */
  readonly events: readonly EventInsert[]
  readonly unknownShapes: readonly UnknownShapeSeen[]
  /** The file's state after this batch; `events` is computed here from what was really inserted. */
  readonly progress: Omit<SourceFileProgress, 'events'>
}

export type CommitOutcome =
  | { readonly committed: true; readonly inserted: number; readonly appended: number }
  /** Another process (a second `index`, the daemon) committed this file first; read it again. */
  | { readonly committed: false }

/** The prepared statements of the capture hot path, for one connection. */
export class CaptureStore {
  readonly #db: Db
  readonly #events: EventWriter
  readonly #sessions: SessionWriter
  readonly #current: Statement
  readonly #progress: Statement
  readonly #shape: Statement
  readonly #rowsAfter: Statement
  readonly #commit: (batch: CaptureBatch) => CommitOutcome
  #inBulk = false
  /** File names of the source_file rows up to id `#namesUpTo`. */
  readonly #names = new Set<string>()
  #namesUpTo = 0

  constructor(db: Db) {
    this.#db = db
    this.#events = new EventWriter(db)
    this.#sessions = new SessionWriter(db)
    this.#current = db.prepare('SELECT offset, fingerprint, events FROM source_file WHERE id = ?')
    this.#progress = db.prepare(writeProgressSql)
    this.#shape = db.prepare(
      /*sql*/ `INSERT INTO unknown_shape (source_file_id, cli_version, record_type, signature, count, first_offset)
               VALUES (?, ?, ?, ?, 1, ?)
               ON CONFLICT DO UPDATE SET count = count + 1`,
    )
    this.#rowsAfter = db.prepare('SELECT id, path FROM source_file WHERE id > ? ORDER BY id')
    this.#commit = db.transaction((batch: CaptureBatch) => this.#apply(batch)).immediate
  }

  /**
   * Whether a source_file row may carry this file name, the first test for a moved transcript.
   * Looking rows up by name scans the whole table (a suffix match), so a first backfill of n files
   * paid n²/2 row reads; this remembers the names seen and reads only rows added since, which
   * covers rows other processes add. Never a wrong no: rows are never deleted, so ids only grow
   * (a rolled-back bulk, whose ids come back, makes it forget), and a move keeps the file name.
   */
  mayHaveFileNamed(name: string): boolean {
    for (const row of this.#rowsAfter.iterate(this.#namesUpTo) as Iterable<{ id: number; path: string }>) {
      this.#names.add(basename(row.path))
      this.#namesUpTo = row.id
    }
    return this.#names.has(name)
  }

  /**
   * Applies a batch in one IMMEDIATE transaction (waits up to the busy timeout for the lock), or
   * within the open bulk transaction.
   */
  commit(batch: CaptureBatch): CommitOutcome {
    // Inside a bulk transaction a batch is applied bare: a savepoint would make FTS5 flush a segment
    // just as a commit does. Nothing is written before the offset check, and an error mid-batch
    // rolls back the whole bulk transaction, so the batch is still all or nothing.
    return this.#inBulk ? this.#apply(batch) : this.#commit(batch)
  }

  /**
   * Opens a transaction that the following commits join. A backfill groups many
   * files this way: FTS5 flushes a segment at every commit, so a thousand small commits cost
   * several times one large one. A crash loses the open group as a whole, never half of it.
   */
  beginBulk(): void {
    this.#db.exec('BEGIN IMMEDIATE')
    this.#inBulk = true
  }

  commitBulk(): void {
    this.#db.exec('COMMIT')
    this.#inBulk = false
  }

  rollbackBulk(): void {
    if (this.#db.inTransaction) this.#db.exec('ROLLBACK')
    this.#inBulk = false
    // Rows created in the group are gone, and their ids will be given to other files.
    this.#names.clear()
    this.#namesUpTo = 0
  }

  #apply(batch: CaptureBatch): CommitOutcome {
    const current = this.#current.get(batch.sourceFileId) as
      | { offset: number; fingerprint: string; events: number }
      | undefined
    if (!current || current.offset !== batch.fromOffset || current.fingerprint !== batch.fromFingerprint) {
      return { committed: false }
    }
    let before = current.events
    let seqFloor: number | null = null
    if (batch.reset) {
      seqFloor = deleteEventsOfSourceFile(this.#db, batch.sourceFileId).maxSeq + 1
      deleteUnknownShapes(this.#db, batch.sourceFileId)
      resetSourceFile(this.#db, batch.sourceFileId, batch.progress.updatedAt)
      before = 0
    }
    const { inserted, appended } = this.#applyEvents(batch, seqFloor)
    for (const shape of batch.unknownShapes) {
      this.#shape.run(
        batch.sourceFileId,
        shape.cliVersion ?? '',
        shape.recordType,
        shape.signature,
        shape.offset,
      )
    }
    this.#progress.run(progressParameters({ ...batch.progress, events: before + inserted.length }))
    if (batch.reset) rebuildSessions(this.#db)
    else this.#touchSessions(inserted)
    return { committed: true, inserted: inserted.length, appended }
  }

  /** `seqFloor`: the seq the first inserted event must take (after a reset deleted the newest rows). */
  #applyEvents(batch: CaptureBatch, seqFloor: number | null): { inserted: EventInsert[]; appended: number } {
    const inserted: EventInsert[] = []
    let appended = 0
    let seq = seqFloor
    for (const event of batch.events) {
      if (event.joinKey !== null && this.#events.append(batch.sourceFileId, event.joinKey, event.text)) {
        appended++
        continue
      }
      if (this.#events.insert(event, seq) === 'inserted') {
        inserted.push(event)
        seq = null
      }
    }
    return { inserted, appended }
  }

  /** One touch per session for the earliest and one for the latest event of the batch. */
  #touchSessions(events: readonly EventInsert[]): void {
    const bySession = new Map<string, { first: EventInsert; last: EventInsert; count: number }>()
    for (const event of events) {
      const seen = bySession.get(event.sessionId)
      if (!seen) bySession.set(event.sessionId, { first: event, last: event, count: 1 })
      else {
        seen.count++
        if (event.at < seen.first.at) seen.first = event
        if (event.at >= seen.last.at) seen.last = event
      }
    }
    for (const { first, last, count } of bySession.values()) {
      this.#sessions.touch(sessionTouchOf(first, count))
      if (last !== first) this.#sessions.touch(sessionTouchOf(last, 0))
    }
  }
}
