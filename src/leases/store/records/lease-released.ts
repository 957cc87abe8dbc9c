import type { SyncedRecordOf } from '../../../sync/protocol/record.ts'
import type { RecordTypeApplier } from '../../../sync/store/applier.ts'
import { logLeaseChange, mirrorRelease } from '../../../sync/store/lease-mirror.ts'
import type { LeaseLogAction } from '../../protocol/lease.ts'

/** A release (the holder's, or a forced one) updates the lease mirror and the lease log. */
export const leaseReleasedApplier: RecordTypeApplier<'lease.released'> = {
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

function releaseAction(payload: SyncedRecordOf<'lease.released'>['payload']): LeaseLogAction {
  if (payload.takeover === true) return 'taken-over'
  return payload.forceReason === null ? 'released' : 'force-released'
}
