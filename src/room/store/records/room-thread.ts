import type { RecordTypeApplier } from '../../../sync/store/applier.ts'
import { writeThread } from '../thread-table.ts'

/** A pulled thread state replaces the stored one when newer by (updatedAt, gseq). */
export const roomThreadApplier: RecordTypeApplier<'room.thread'> = {
  type: 'room.thread',
  counts: 'roomRecords',
  open: (db) => ({
    apply: (record) => writeThread(db, record.payload, record.gseq),
  }),
}
