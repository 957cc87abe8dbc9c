import type { RecordTypeApplier } from '../../../sync/store/applier.ts'
import { applyMachine } from '../machine-table.ts'

/** A machine's readable name: the newest per machine wins. */
export const roomMachineApplier: RecordTypeApplier<'room.machine'> = {
  type: 'room.machine',
  counts: 'roomRecords',
  open: (db) => ({
    apply(record) {
      const change = Number(record.id.slice(record.id.lastIndexOf(':') + 1))
      return applyMachine(db, {
        ...record.payload,
        change: Number.isInteger(change) ? change : 0,
        human: record.actor.human,
      })
    },
  }),
}
