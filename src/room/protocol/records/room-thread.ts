import type { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'
import { threadSchema } from '../thread.ts'

const name = 'room.thread'

/**
 * What a client pushes when a thread changed: its whole state after the change. The record id is
 * `<thread id>@<updatedAt>`, so each change is one record (the log keeps the history) and a
 * re-push of the same change is the same record.
 */
export const roomThreadRecordDraftSchema = recordDraftSchema(name, threadSchema).refine(
  (draft) => draft.id === draft.payload.id || draft.id.startsWith(`${draft.payload.id}@`),
  {
    message: 'a room thread record id is the thread id, or "<thread id>@<updatedAt>"',
    path: ['id'],
  },
)

export const roomThreadRecordType = defineRecordType({
  name,
  description: "a room thread's whole state after a change (open, a post into it, close)",
  payload: threadSchema,
  draft: roomThreadRecordDraftSchema,
})

export const roomThreadRecordSchema = roomThreadRecordType.served
export type RoomThreadRecord = z.infer<typeof roomThreadRecordSchema>
