import type { ApplyCounts, OpenApplier } from '../../records/store/applier.ts'
import { redactAll, redactForWire } from '../../secrets/core/wire-fields.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import { planApply } from '../core/apply-plan.ts'
import type { SyncedRecord } from '../protocol/record.ts'
import { recordAppliers } from './record-appliers.ts'
import { readSyncState, type SyncOrigin, writeCursor } from './state-table.ts'

export interface ApplyOutcome extends Readonly<ApplyCounts> {
  /** Records that moved the cursor. */
  readonly applied: number
  /** Records at or below the cursor, skipped. */
  readonly stale: number
  /** A record was missing: the replica stopped here and must fetch after it again. */
  readonly gapAfter: number | null
  readonly cursor: number
}

interface Opened {
  readonly counts: keyof ApplyCounts
  readonly applier: OpenApplier<SyncedRecord>
}

/**
 * Applies records from the server to the replica, in gseq order, in one transaction with the
 * cursor: a crash keeps both or neither. Each record goes to the applier of its type
 * (`record-appliers.ts`), every free-text field redacted first; a record of a type with no applier
 * fails the whole batch, so the cursor stays before it and nothing after it is skipped.
 */
export class RecordApplier {
  readonly #db: Db
  readonly #origin: SyncOrigin
  readonly #appliers = new Map<string, Opened>()
  readonly #apply: (records: readonly SyncedRecord[], receivedAt: number) => ApplyOutcome

  /** `origin`: the server the records come from; they apply only to a replica attached to it. */
  constructor(db: Db, origin: SyncOrigin) {
    this.#db = db
    this.#origin = origin
    for (const { type, counts, open } of Object.values(recordAppliers)) {
      // Each applier takes the records of its own type: the map is keyed by that type.
      this.#appliers.set(type, { counts, applier: open(db) as OpenApplier<SyncedRecord> })
    }
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
    for (const { applier } of this.#appliers.values()) applier.begin?.()
    const plan = planApply(state.cursor, records)
    const counts: ApplyCounts = { events: 0, leaseChanges: 0, roomRecords: 0, worktreeStates: 0 }
    for (const record of plan.apply) {
      const opened = this.#appliers.get(record.type)
      if (opened === undefined) {
        throw new SangamError(
          ErrorCode.Internal,
          `record ${record.gseq} has type "${record.type}", which this sangam cannot apply; nothing in its batch was applied`,
          { gseq: record.gseq, type: record.type },
        )
      }
      // A record from the server is stored redacted: an older server took what an older client
      // did not check, and its writer is not here to be asked (secrets/core/free-text-rule.ts).
      const redacted = redactForWire(record.type, record, redactAll).value
      if (opened.applier.apply(redacted, receivedAt)) counts[opened.counts]++
    }
    const last = plan.apply.at(-1)
    const cursor = last?.gseq ?? state.cursor
    if (last !== undefined) writeCursor(this.#db, cursor, receivedAt)
    return {
      applied: plan.apply.length,
      ...counts,
      stale: plan.stale,
      gapAfter: plan.gapAfter,
      cursor,
    }
  }
}
