import type { z } from 'zod'
import { leaseReleasedPayloadSchema } from '../../../sync/protocol/lease.ts'
import { defineRecordType } from '../../../sync/protocol/record-type.ts'

/** A lease released; `actor` is who released it (the holder, or whoever forced it). */
export const leaseReleasedRecordType = defineRecordType({
  name: 'lease.released',
  description: 'a lease released; actor is who released it (the holder, or whoever forced it)',
  payload: leaseReleasedPayloadSchema,
  draft: null,
})

export const leaseReleasedRecordSchema = leaseReleasedRecordType.served
export type LeaseReleasedRecord = z.infer<typeof leaseReleasedRecordSchema>
