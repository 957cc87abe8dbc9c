import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { roomMachineRecordType } from '../../protocol/records/room-machine.ts'
import { applyMachine } from '../machine-table.ts'

/** A machine's readable name: the newest per machine wins. */
export const roomMachineApplier: RecordTypeApplier<typeof roomMachineRecordType> = {
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
