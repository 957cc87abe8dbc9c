import { planApply } from '../../core/sync/apply-plan.ts'
import type { Event } from '../../protocol/event.ts'
import type { Lease, LeaseLogAction } from '../../protocol/lease.ts'
import type { SyncedRecord } from '../../protocol/sync/record.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { ensureSourceFile, recordSourceFileScope } from '../capture/source-file-table.ts'
import type { Db, Statement } from '../database.ts'
import { appendLeaseLog } from '../leases/lease-table.ts'
import { EventWriter, eventInsertOf } from '../memory/event-table.ts'
import { SessionWriter, sessionTouchOf } from '../memory/session-table.ts'
import { mirrorGrant, mirrorRelease } from './lease-mirror.ts'
import { readSyncState, type SyncOrigin, writeCursor } from './state-table.ts'

export interface ApplyOutcome {
  /** Records that moved the cursor. */
  readonly applied: number
  /** Of those, events new to this replica (the rest were its own, or already here). */
  readonly events: number
  readonly leaseChanges: number
  /** Records at or below the cursor, skipped. */
  readonly stale: number
  /** A record was missing: the replica stopped here and must fetch after it again. */
  readonly gapAfter: number | null
  readonly cursor: number
}

/**
 * Applies records from the server to the replica, in gseq order, in one transaction with the
 * cursor: a crash keeps both or neither. An event is inserted like a captured one (row, FTS,
 * session), marked with its gseq so it is never pushed back; one already here (this machine's own,
 * or applied before) changes nothing. Lease records update the lease mirror and the lease log.
 */
export class RecordApplier {
  readonly #db: Db
  readonly #origin: SyncOrigin
  readonly #events: EventWriter
  readonly #sessions: SessionWriter
  readonly #exists: Statement
  readonly #markRemote: Statement
  readonly #remoteFiles = new Map<string, number>()
  readonly #apply: (records: readonly SyncedRecord[], receivedAt: number) => ApplyOutcome

  /** `origin`: the server the records come from; they apply only to a replica attached to it. */
  constructor(db: Db, origin: SyncOrigin) {
    this.#db = db
    this.#origin = origin
    this.#events = new EventWriter(db)
    this.#sessions = new SessionWriter(db)
    this.#exists = db.prepare('SELECT 1 FROM event WHERE id = ?')
    this.#markRemote = db.prepare('UPDATE event SET origin_gseq = ?, received_at = ? WHERE id = ?')
    this.#apply = db.transaction((records: readonly SyncedRecord[], receivedAt: number) =>
      this.#applyAll(records, receivedAt),
    ).immediate
  }

  apply(records: readonly SyncedRecord[], receivedAt: number): ApplyOutcome {
    return this.#apply(records, receivedAt)
  }

  #applyAll(records: readonly SyncedRecord[], receivedAt: number): ApplyOutcome {
    const state = readSyncState(this.#db)
    if (state?.serverUrl !== this.#origin.serverUrl || state.projectId !== this.#origin.projectId) {
      // `join` attached this replica elsewhere while records from the old server were in flight.
      throw new SangamError(
        ErrorCode.ServerRefused,
        `records from ${this.#origin.serverUrl} arrived, but this replica is now attached to ${state?.serverUrl ?? 'no server'}`,
        { code: 'ATTACHMENT_CHANGED' },
      )
    }
    // Rows created by a transaction that rolled back must not be remembered.
    this.#remoteFiles.clear()
    const plan = planApply(state.cursor, records)
    let events = 0
    let leaseChanges = 0
    for (const record of plan.apply) {
      switch (record.type) {
        case 'event':
          if (this.#insertEvent(record.payload, record.gseq, receivedAt)) events++
          break
        case 'lease.granted':
          mirrorGrant(this.#db, record.payload.lease)
          this.#log(record.payload.renewed ? 'renewed' : 'granted', record, record.payload.lease, null)
          leaseChanges++
          break
        case 'lease.released':
          mirrorRelease(this.#db, record.payload.lease)
          this.#log(
            record.payload.forceReason === null ? 'released' : 'force-released',
            record,
            record.payload.lease,
            record.payload.forceReason,
          )
          leaseChanges++
          break
      }
    }
    const last = plan.apply.at(-1)
    const cursor = last?.gseq ?? state.cursor
    if (last !== undefined) writeCursor(this.#db, cursor, receivedAt)
    return {
      applied: plan.apply.length,
      events,
      leaseChanges,
      stale: plan.stale,
      gapAfter: plan.gapAfter,
      cursor,
    }
  }

  #insertEvent(event: Event, gseq: number, receivedAt: number): boolean {
    if (this.#exists.get(event.id) !== undefined) return false
    const row = eventInsertOf(event, { sourceFileId: this.#remoteFile(event, receivedAt), joinKey: null })
    this.#events.insert(row)
    this.#markRemote.run(gseq, receivedAt, event.id)
    if (event.kind !== 'note') this.#sessions.touch(sessionTouchOf(row, 1))
    return true
  }

  /**
   * A teammate's transcript gets a `source_file` row of its own, so `thread` orders its events by
   * byte offset as it does local ones. The row is marked out of scope: capture never reads it and
   * doctor never counts it, since the file is on another machine.
   */
  #remoteFile(event: Event, now: number): number | null {
    if (event.sourcePath === null || event.vendor === 'sangam') return null
    const known = this.#remoteFiles.get(event.sourcePath)
    if (known !== undefined) return known
    const row = ensureSourceFile(this.#db, event.sourcePath, event.vendor, now)
    recordSourceFileScope(this.#db, row.id, { firstCwd: event.cwd, inScope: false, size: 0, mtime: 0, now })
    this.#remoteFiles.set(event.sourcePath, row.id)
    return row.id
  }

  /** `record.actor` is who did it: the holder for a grant, whoever released for a release. */
  #log(action: LeaseLogAction, record: SyncedRecord, lease: Lease, forceReason: string | null): void {
    appendLeaseLog(this.#db, {
      at: Date.parse(record.at),
      action,
      pattern: lease.pattern,
      token: lease.token,
      holder: lease.holder,
      by: record.actor,
      reason: forceReason ?? lease.reason,
    })
  }
}
