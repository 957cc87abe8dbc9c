import type { z } from 'zod'
import { leaseGrantedPayloadSchema } from '../../../sync/protocol/lease.ts'
import { defineRecordType } from '../../../sync/protocol/record-type.ts'

/** A lease granted or renewed by the server; `actor` is the holder. */
export const leaseGrantedRecordType = defineRecordType({
  name: 'lease.granted',
  description: 'a lease the server granted or renewed; actor is the holder',
  payload: leaseGrantedPayloadSchema,
  draft: null,
})

export const leaseGrantedRecordSchema = leaseGrantedRecordType.served
export type LeaseGrantedRecord = z.infer<typeof leaseGrantedRecordSchema>
