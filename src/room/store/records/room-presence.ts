import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { roomPresenceRecordType } from '../../protocol/records/room-presence.ts'
import { applyPresence } from '../presence-table.ts'

/** A session's presence: the newest per vendor and session wins; its machine is the writer's. */
export const roomPresenceApplier: RecordTypeApplier<typeof roomPresenceRecordType> = {
  type: 'room.presence',
  counts: 'roomRecords',
  open: (db) => ({
    apply(record) {
      const change = Number(record.id.slice(record.id.lastIndexOf(':') + 1))
      return applyPresence(db, { ...record.payload, change: Number.isInteger(change) ? change : 0 })
    },
  }),
}
