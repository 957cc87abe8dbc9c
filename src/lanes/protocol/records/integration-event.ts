import type { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'
import { integrationEventPayloadSchema } from '../integration-event.ts'

const name = 'integration.event'

/** What a machine pushes for each integration event it records (`integration:<machine>:<n>`). */
export const integrationEventRecordDraftSchema = recordDraftSchema(name, integrationEventPayloadSchema)

/** One integration event of one machine; every replica keeps each once. */
export const integrationEventRecordType = defineRecordType({
  name,
  description:
    'what a lane command did on its machine (a publish, a lane created or deleted, …), for sangam log',
  payload: integrationEventPayloadSchema,
  draft: integrationEventRecordDraftSchema,
})

export const integrationEventRecordSchema = integrationEventRecordType.served
export type IntegrationEventRecord = z.infer<typeof integrationEventRecordSchema>
