import type { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'
import { eventSchema } from '../event.ts'

const name = 'event'

/**
 * What a client pushes: an event it captured or a note. The record id is the event's id, which is
 * deterministic, so a client that replays its outbox (or rebuilds it) never creates a second
 * record. Events the client marked not shareable (tool output, unless the project opts in) are
 * refused, so a client bug cannot leak them.
 */
export const eventRecordDraftSchema = recordDraftSchema(name, eventSchema)
  .refine((draft) => draft.id === draft.payload.id, {
    message: 'an event record carries its event id as its record id',
    path: ['id'],
  })
  .refine((draft) => draft.payload.shareable, {
    message: 'this event is marked not shareable; it must not leave the machine',
    path: ['payload', 'shareable'],
  })
export type EventRecordDraft = z.infer<typeof eventRecordDraftSchema>

/** A captured event or a note, shared with the team; the record id is the event's id. */
export const eventRecordType = defineRecordType({
  name,
  description: 'a captured event or a note, pushed by the machine that captured it',
  payload: eventSchema,
  draft: eventRecordDraftSchema,
})

/** An event record as the server serves it. */
export const eventRecordSchema = eventRecordType.served
export type EventRecord = z.infer<typeof eventRecordSchema>
