import type { RecordTypeApplier } from '../../../sync/store/applier.ts'
import { logLeaseChange, mirrorGrant } from '../../../sync/store/lease-mirror.ts'

/** A grant or renewal updates the lease mirror and the lease log. */
export const leaseGrantedApplier: RecordTypeApplier<'lease.granted'> = {
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
