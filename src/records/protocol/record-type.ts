import { z } from 'zod'
import { type Actor, actorSchema } from '../../identity/protocol/actor.ts'

/**
 * One record type of the team log: its name (the wire `type`), who authors it, its payload schema
 * and the served shape derived from them. Each type is defined once, in its feature's
 * `protocol/records/`, and listed in `sync/protocol/record.ts`; the server builds its records
 * through `build`, and the client applies each type through the applier beside its definition
 * (`store/records/`, listed in `sync/store/record-appliers.ts`). A feature's records need only this
 * file, not sync, which composes them.
 */

/** A client's id for a record: the idempotency key of pushes. Ids starting `srv_` are the server's. */
export const recordIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,199}$/, 'a record id is 1–200 URL-safe characters')
  .refine((id) => !id.startsWith('srv_'), 'record ids starting "srv_" are reserved for the server')

export const isoTimeSchema = z.iso.datetime({ offset: true })

/** What the server adds to every record it orders. */
export const recordStampSchema = z.object({
  /** The record's place in the project's total order: 1, 2, 3, … with no gaps. */
  gseq: z.number().int().positive(),
  /** ISO-8601: when the server appended it. */
  receivedAt: isoTimeSchema,
})

const servedFields = {
  ...recordStampSchema.shape,
  id: z.string(),
  actor: actorSchema,
  /** ISO-8601: when it happened (the client's time for events, the server's for lease changes). */
  at: z.string(),
}

/**
 * The draft of a client-authored type: a record of that type with that payload, its id a client's
 * record id. A type with its own rule (the id is the payload's id, …) refines this schema.
 */
export function recordDraftSchema<const Name extends string, Payload extends z.ZodType>(
  name: Name,
  payload: Payload,
) {
  return z.object({
    id: recordIdSchema,
    type: z.literal(name),
    actor: actorSchema,
    /** ISO-8601: when the record happened on the client. */
    at: isoTimeSchema,
    payload,
  })
}

/** A record before the log stamps it: what a client pushes, or what the server authors. */
export interface RecordContent<Name extends string = string, Payload = unknown> {
  readonly id: string
  readonly type: Name
  readonly actor: Actor
  /** ISO-8601: when it happened. */
  readonly at: string
  readonly payload: Payload
}

/**
 * Defines a record type. `draft` is the schema of what a client pushes for a client-authored type
 * (the server checks every pushed record with it), and `null` for a type only the server authors.
 */
export function defineRecordType<
  const Name extends string,
  Payload extends z.ZodType,
  Draft extends z.ZodType<RecordContent<Name>> | null,
>(definition: {
  readonly name: Name
  /** One line for readers of the registry. */
  readonly description: string
  readonly payload: Payload
  readonly draft: Draft
}) {
  const served = z.object({ ...servedFields, type: z.literal(definition.name), payload: definition.payload })
  return {
    ...definition,
    /** `client`: pushed by clients, checked with `draft`; `server`: authored by the server alone. */
    author: (definition.draft === null ? 'server' : 'client') as Draft extends null ? 'server' : 'client',
    /** The record as a pull or a socket delivers it. */
    served,
    /** The record's content, typed by its payload; the log stamps gseq and receivedAt on it. */
    build(
      fields: Omit<RecordContent<Name, z.infer<Payload>>, 'type'>,
    ): RecordContent<Name, z.infer<Payload>> {
      return {
        id: fields.id,
        type: definition.name,
        actor: fields.actor,
        at: fields.at,
        payload: fields.payload,
      }
    },
  }
}

/** The record of one type as a pull or a socket delivers it. */
export type ServedRecord<Type extends { readonly served: z.ZodType }> = z.infer<Type['served']>
