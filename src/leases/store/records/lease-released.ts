import type { ServedRecord } from '../../../records/protocol/record-type.ts'
import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { LeaseLogAction } from '../../protocol/lease.ts'
import type { leaseReleasedRecordType } from '../../protocol/records/lease-released.ts'
import { logLeaseChange, mirrorRelease } from '../lease-mirror.ts'

/** A release (the holder's, or a forced one) updates the lease mirror and the lease log. */
export const leaseReleasedApplier: RecordTypeApplier<typeof leaseReleasedRecordType> = {
  type: 'lease.released',
  counts: 'leaseChanges',
  open: (db) => ({
    apply(record) {
      const { lease, forceReason } = record.payload
      mirrorRelease(db, lease)
      logLeaseChange(db, record, releaseAction(record.payload), lease, forceReason)
      return true
    },
  }),
}

function releaseAction(payload: ServedRecord<typeof leaseReleasedRecordType>['payload']): LeaseLogAction {
  if (payload.takeover === true) return 'taken-over'
  return payload.forceReason === null ? 'released' : 'force-released'
}
