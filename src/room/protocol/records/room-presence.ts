import type { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'
import { presencePayloadSchema } from '../presence.ts'

const name = 'room.presence'

/** What a client pushes when one of its sessions changes state, place or handle. */
export const roomPresenceRecordDraftSchema = recordDraftSchema(name, presencePayloadSchema)

/** A session's presence; the replica keeps the newest per vendor and session. */
export const roomPresenceRecordType = defineRecordType({
  name,
  description: "a session's presence (state, worktree, branch, handle), pushed by its machine",
  payload: presencePayloadSchema,
  draft: roomPresenceRecordDraftSchema,
})

export const roomPresenceRecordSchema = roomPresenceRecordType.served
export type RoomPresenceRecord = z.infer<typeof roomPresenceRecordSchema>
