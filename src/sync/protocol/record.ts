import { z } from 'zod'
import { integrationEventRecordType } from '../../lanes/protocol/records/integration-event.ts'
import { leaseGrantedRecordType } from '../../leases/protocol/records/lease-granted.ts'
import { leaseReleasedRecordType } from '../../leases/protocol/records/lease-released.ts'
import { eventRecordType } from '../../memory/protocol/records/event.ts'
import type { RecordContent } from '../../records/protocol/record-type.ts'
import { roomMachineRecordType } from '../../room/protocol/records/room-machine.ts'
import { roomMessageRecordType } from '../../room/protocol/records/room-message.ts'
import { roomOptionRecordType } from '../../room/protocol/records/room-option.ts'
import { roomPresenceRecordType } from '../../room/protocol/records/room-presence.ts'
import { roomThreadRecordType } from '../../room/protocol/records/room-thread.ts'
import { roomWorktreeRecordType } from '../../room/protocol/records/room-worktree.ts'

/**
 * A record is anything shared with the team. Clients push `event` records (captured events and
 * notes, as stored in their replica); the server appends the records it authors itself
 * (`lease.granted`, `lease.released`). The server gives every record its `gseq`, one gapless
 * order per project.
 *
 * This file is the registry: every record type is defined once in `records/<type>.ts` and listed
 * here, and the unions below are derived from the list. Adding a type is a file there, an entry
 * here, and its applier in `sync/store/record-appliers.ts` (a test checks each type has one).
 * The definitions need only `records/protocol/record-type.ts`: sync composes them, one way.
 */
export const recordTypes = [
  eventRecordType,
  leaseGrantedRecordType,
  leaseReleasedRecordType,
  roomMessageRecordType,
  roomThreadRecordType,
  roomPresenceRecordType,
  roomOptionRecordType,
  roomWorktreeRecordType,
  roomMachineRecordType,
  integrationEventRecordType,
] as const

type RecordTypes = typeof recordTypes
type AnyRecordType = RecordTypes[number]
export type RecordTypeName = AnyRecordType['name']
/** The definition of the record type named `Name`. */
export type RecordTypeOf<Name extends RecordTypeName> = Extract<AnyRecordType, { readonly name: Name }>
type ClientRecordType = Extract<AnyRecordType, { readonly author: 'client' }>
type ServerRecordType = Extract<AnyRecordType, { readonly author: 'server' }>
type ServerRecordTypeName = ServerRecordType['name']

export const recordTypeNames: readonly RecordTypeName[] = recordTypes.map((type) => type.name)

/** The refusal of a record whose `type` is not in the list (a newer peer's, or a client bug). */
function unknownType(say: (type: string) => string) {
  return (issue: { readonly input?: unknown }): string =>
    say(JSON.stringify((issue.input as { type?: unknown } | undefined)?.type))
}

type ServedOf<T extends readonly unknown[]> = {
  -readonly [K in keyof T]: T[K] extends { readonly served: infer Schema } ? Schema : never
}
// `map` forgets that the list is a tuple; the union needs the tuple of schemas to infer its type.
const servedSchemas = recordTypes.map((type) => type.served) as unknown as ServedOf<RecordTypes>

/** Every record a pull or a socket delivers. */
export const syncedRecordSchema = z.discriminatedUnion('type', servedSchemas, {
  error: unknownType(
    (type) =>
      `unknown record type ${type}: this sangam knows ${recordTypeNames.join(', ')}; upgrade it to read the team's newer records`,
  ),
})
export type SyncedRecord = z.infer<typeof syncedRecordSchema>
/** The served record of one type. */
export type SyncedRecordOf<Name extends RecordTypeName> = Extract<SyncedRecord, { readonly type: Name }>

const clientTypes = recordTypes.filter((type): type is ClientRecordType => type.author === 'client')
type Drafts = [ClientRecordType['draft'], ...ClientRecordType['draft'][]]
const draftSchemas = clientTypes.map((type) => type.draft) as Drafts

/** Every record a client may push: the drafts of the client-authored types. */
export const recordDraftSchema = z.discriminatedUnion('type', draftSchemas, {
  error: unknownType(
    (type) => `a client may push ${clientTypes.map((type) => type.name).join(', ')} records, not ${type}`,
  ),
})
export type RecordDraft = z.infer<typeof recordDraftSchema>

/** A record the server authors, built with its type's `build`. */
export type ServerRecordContent = {
  [Name in ServerRecordTypeName]: RecordContent<Name, SyncedRecordOf<Name>['payload']>
}[ServerRecordTypeName]

/** Everything the log appends: pushed drafts and the server's own records. */
export type AppendableRecord = RecordDraft | ServerRecordContent

export {
  type IntegrationEventRecord,
  integrationEventRecordSchema,
} from '../../lanes/protocol/records/integration-event.ts'
export { leaseGrantedRecordSchema } from '../../leases/protocol/records/lease-granted.ts'
export { leaseReleasedRecordSchema } from '../../leases/protocol/records/lease-released.ts'
export {
  type EventRecord,
  type EventRecordDraft,
  eventRecordDraftSchema,
  eventRecordSchema,
} from '../../memory/protocol/records/event.ts'
export { recordIdSchema, recordStampSchema } from '../../records/protocol/record-type.ts'
export { type RoomMachineRecord, roomMachineRecordSchema } from '../../room/protocol/records/room-machine.ts'
export { type RoomMessageRecord, roomMessageRecordSchema } from '../../room/protocol/records/room-message.ts'
export {
  type RoomOptionPayload,
  type RoomOptionRecord,
  roomOptionRecordId,
  roomOptionRecordSchema,
} from '../../room/protocol/records/room-option.ts'
export { roomPresenceRecordSchema } from '../../room/protocol/records/room-presence.ts'
export { type RoomThreadRecord, roomThreadRecordSchema } from '../../room/protocol/records/room-thread.ts'
export {
  type RoomWorktreeRecord,
  roomWorktreeRecordSchema,
} from '../../room/protocol/records/room-worktree.ts'
