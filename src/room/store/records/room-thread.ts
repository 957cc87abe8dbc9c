import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { roomThreadRecordType } from '../../protocol/records/room-thread.ts'
import { writeThread } from '../thread-table.ts'

/** A pulled thread state replaces the stored one when newer by (updatedAt, gseq). */
export const roomThreadApplier: RecordTypeApplier<typeof roomThreadRecordType> = {
  type: 'room.thread',
  counts: 'roomRecords',
  open: (db) => ({
    apply: (record) => writeThread(db, record.payload, record.gseq),
  }),
}
