import { z } from 'zod'
import { eventSchema } from '../event.ts'
import { actorSchema } from '../lease.ts'
import { leaseGrantedPayloadSchema, leaseReleasedPayloadSchema } from './lease.ts'

/**
 * A record is anything shared with the team. Clients push `event` records (captured events and
 * notes, as stored in their replica); the server appends the records it authors itself
 * (`lease.granted`, `lease.released`). The server gives every record its `gseq`, one gapless
 * order per project.
 */

/** A client's id for a record: the idempotency key of pushes. Ids starting `srv_` are the server's. */
export const recordIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,199}$/, 'a record id is 1–200 URL-safe characters')
  .refine((id) => !id.startsWith('srv_'), 'record ids starting "srv_" are reserved for the server')

const isoTime = z.iso.datetime({ offset: true })

/**
 * What a client pushes: an event it captured or a note. The record id is the event's id, which is
 * deterministic, so a client that replays its outbox (or rebuilds it) never creates a second
 * record. Events the client marked not shareable (tool output, unless the project opts in) are
 * refused, so a client bug cannot leak them.
 */
export const eventRecordDraftSchema = z
  .object({
    id: recordIdSchema,
    type: z.literal('event'),
    actor: actorSchema,
    /** ISO-8601: when the record happened on the client (the event's own time). */
    at: isoTime,
    payload: eventSchema,
  })
  .refine((draft) => draft.id === draft.payload.id, {
    message: 'an event record carries its event id as its record id',
    path: ['id'],
  })
  .refine((draft) => draft.payload.shareable, {
    message: 'this event is marked not shareable; it must not leave the machine',
    path: ['payload', 'shareable'],
  })
export type EventRecordDraft = z.infer<typeof eventRecordDraftSchema>

/** Every record type a client may push. */
export const recordDraftSchema = eventRecordDraftSchema
export type RecordDraft = z.infer<typeof recordDraftSchema>

/** What the server adds to every record it orders. */
export const recordStampSchema = z.object({
  /** The record's place in the project's total order: 1, 2, 3, … with no gaps. */
  gseq: z.number().int().positive(),
  /** ISO-8601: when the server appended it. */
  receivedAt: isoTime,
})

const servedFields = {
  ...recordStampSchema.shape,
  id: z.string(),
  actor: actorSchema,
  /** ISO-8601: when it happened (the client's time for events, the server's for lease changes). */
  at: z.string(),
}

/** An event record as the server serves it. */
export const eventRecordSchema = z.object({ ...servedFields, type: z.literal('event'), payload: eventSchema })
export type EventRecord = z.infer<typeof eventRecordSchema>

/** A lease granted or renewed by the server; `actor` is the holder. */
export const leaseGrantedRecordSchema = z.object({
  ...servedFields,
  type: z.literal('lease.granted'),
  payload: leaseGrantedPayloadSchema,
})

/** A lease released; `actor` is who released it (the holder, or whoever forced it). */
export const leaseReleasedRecordSchema = z.object({
  ...servedFields,
  type: z.literal('lease.released'),
  payload: leaseReleasedPayloadSchema,
})

/** Every record a pull or a socket delivers. */
export const syncedRecordSchema = z.discriminatedUnion('type', [
  eventRecordSchema,
  leaseGrantedRecordSchema,
  leaseReleasedRecordSchema,
])
export type SyncedRecord = z.infer<typeof syncedRecordSchema>
