import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { leaseGrantedRecordType } from '../../protocol/records/lease-granted.ts'
import { logLeaseChange, mirrorGrant } from '../lease-mirror.ts'

/** A grant or renewal updates the lease mirror and the lease log. */
export const leaseGrantedApplier: RecordTypeApplier<typeof leaseGrantedRecordType> = {
  type: 'lease.granted',
  counts: 'leaseChanges',
  open: (db) => ({
    apply(record) {
      const { lease, renewed } = record.payload
      mirrorGrant(db, lease)
      logLeaseChange(db, record, renewed ? 'renewed' : 'granted', lease, null)
      return true
    },
  }),
}
