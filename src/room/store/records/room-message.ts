import type { RecordTypeApplier } from '../../../sync/store/applier.ts'
import { insertMessage } from '../message-table.ts'

/** A pulled message is stored once; our own post echoed back only takes its gseq. */
export const roomMessageApplier: RecordTypeApplier<'room.message'> = {
  type: 'room.message',
  counts: 'roomRecords',
  open: (db) => ({
    apply: (record) => insertMessage(db, record.payload, record.gseq),
  }),
}
