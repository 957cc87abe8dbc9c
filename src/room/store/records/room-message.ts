import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { roomMessageRecordType } from '../../protocol/records/room-message.ts'
import { insertMessage } from '../message-table.ts'

/** A pulled message is stored once; our own post echoed back only takes its gseq. */
export const roomMessageApplier: RecordTypeApplier<typeof roomMessageRecordType> = {
  type: 'room.message',
  counts: 'roomRecords',
  open: (db) => ({
    apply: (record) => insertMessage(db, record.payload, record.gseq),
  }),
}
