import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { integrationEventRecordType } from '../../protocol/records/integration-event.ts'
import { applyIntegrationEvent } from '../integration-event-table.ts'

/** Another machine's integration event: one row per record id (this machine's own are already here). */
export const integrationEventApplier: RecordTypeApplier<typeof integrationEventRecordType> = {
  type: 'integration.event',
  counts: 'roomRecords',
  open: (db) => ({
    apply(record) {
      return applyIntegrationEvent(db, record.id, record.payload)
    },
  }),
}
