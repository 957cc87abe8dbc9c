import { z } from 'zod'
import { actorSchema } from '../../../identity/protocol/actor.ts'
import { defineRecordType, isoTimeSchema, recordIdSchema } from '../../../records/protocol/record-type.ts'
import { presencePayloadSchema } from '../presence.ts'

const name = 'room.presence'

/** What a client pushes when one of its sessions changes state, place or handle. */
export const roomPresenceRecordDraftSchema = z.object({
  id: recordIdSchema,
  type: z.literal(name),
  actor: actorSchema,
  at: isoTimeSchema,
  payload: presencePayloadSchema,
})

/** A session's presence; the replica keeps the newest per vendor and session. */
export const roomPresenceRecordType = defineRecordType({
  name,
  description: "a session's presence (state, worktree, branch, handle), pushed by its machine",
  payload: presencePayloadSchema,
  draft: roomPresenceRecordDraftSchema,
})

export const roomPresenceRecordSchema = roomPresenceRecordType.served
export type RoomPresenceRecord = z.infer<typeof roomPresenceRecordSchema>
