import type { z } from 'zod'
import type { Db } from '../../store/db.ts'
import type { ServedRecord } from '../protocol/record-type.ts'

/** What the records of a batch added up to, besides the cursor; each applier adds to one count. */
export interface ApplyCounts {
  /** Events new to this replica (the rest were its own, or already here). */
  events: number
  leaseChanges: number
  /** Room records (presence, messages, threads, options) that changed the replica. */
  roomRecords: number
  /** Other machines' worktree states that changed the replica (the overlap picture is stale). */
  worktreeStates: number
}

/** One record type's applier, opened on a replica: prepared once, used for every batch. */
export interface OpenApplier<Record> {
  /**
   * Applies one record inside the batch's transaction; true when it changed the replica. It may
   * throw: the whole batch and its cursor then roll back, so nothing is lost.
   */
  apply(record: Record, receivedAt: number): boolean
  /** Called as each batch starts: forget anything cached by a batch that rolled back. */
  begin?(): void
}

/**
 * How the replica takes in the records of one type (`Type`, its definition); each sits beside its
 * feature's tables (`store/records/`), and `sync/store/record-appliers.ts` lists them all.
 */
export interface RecordTypeApplier<Type extends { readonly name: string; readonly served: z.ZodType }> {
  readonly type: Type['name']
  /** The count a record that changed the replica adds to. */
  readonly counts: keyof ApplyCounts
  open(db: Db): OpenApplier<ServedRecord<Type>>
}
