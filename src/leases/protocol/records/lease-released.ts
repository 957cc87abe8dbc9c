import { z } from 'zod'
import { defineRecordType } from '../../../records/protocol/record-type.ts'
import { leaseSchema } from '../lease.ts'

/**
 * The payload of a `lease.released` record; `forceReason` is set when someone else released it.
 * `takeover`: the lease was an agent's auto-lease that its own human's claim ended, and
 * `forceReason` is that claim's reason (servers and clients older than the field read it as a
 * forced release, which is what it is).
 */
export const leaseReleasedPayloadSchema = z.object({
  lease: leaseSchema,
  forceReason: z.string().nullable(),
  takeover: z.boolean().optional(),
})

/** A lease released; `actor` is who released it (the holder, or whoever forced it). */
export const leaseReleasedRecordType = defineRecordType({
  name: 'lease.released',
  description: 'a lease released; actor is who released it (the holder, or whoever forced it)',
  payload: leaseReleasedPayloadSchema,
  draft: null,
})

export const leaseReleasedRecordSchema = leaseReleasedRecordType.served
export type LeaseReleasedRecord = z.infer<typeof leaseReleasedRecordSchema>
