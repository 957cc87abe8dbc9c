import { insertMessage } from '../../room/message-table.ts'
import type { RecordTypeApplier } from './applier.ts'

/** A pulled message is stored once; our own post echoed back only takes its gseq. */
export const roomMessageApplier: RecordTypeApplier<'room.message'> = {
  type: 'room.message',
  counts: 'roomRecords',
  open: (db) => ({
    apply: (record) => insertMessage(db, record.payload, record.gseq),
  }),
}
