import { z } from 'zod'
import { defineRecordType } from '../../../records/protocol/record-type.ts'
import { leaseSchema } from '../lease.ts'

/** The payload of a `lease.granted` record: a new lease, or a renewal (same token, new expiry). */
export const leaseGrantedPayloadSchema = z.object({
  lease: leaseSchema,
  renewed: z.boolean(),
})

/** A lease granted or renewed by the server; `actor` is the holder. */
export const leaseGrantedRecordType = defineRecordType({
  name: 'lease.granted',
  description: 'a lease the server granted or renewed; actor is the holder',
  payload: leaseGrantedPayloadSchema,
  draft: null,
})

export const leaseGrantedRecordSchema = leaseGrantedRecordType.served
export type LeaseGrantedRecord = z.infer<typeof leaseGrantedRecordSchema>
