import type { RecordTypeApplier } from '../../../sync/store/applier.ts'
import { applyPresence } from '../presence-table.ts'

/** A session's presence: the newest per vendor and session wins; its machine is the writer's. */
export const roomPresenceApplier: RecordTypeApplier<'room.presence'> = {
  type: 'room.presence',
  counts: 'roomRecords',
  open: (db) => ({
    apply(record) {
      const change = Number(record.id.slice(record.id.lastIndexOf(':') + 1))
      return applyPresence(db, { ...record.payload, change: Number.isInteger(change) ? change : 0 })
    },
  }),
}
