import type { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'
import { messageSchema } from '../message.ts'

const name = 'room.message'

/** What a client pushes for a message it posted; the record id is the message id. */
export const roomMessageRecordDraftSchema = recordDraftSchema(name, messageSchema).refine(
  (draft) => draft.id === draft.payload.id,
  {
    message: 'a room message record carries its message id as its record id',
    path: ['id'],
  },
)

export const roomMessageRecordType = defineRecordType({
  name,
  description: 'a message posted in the room, pushed by the machine it was posted on',
  payload: messageSchema,
  draft: roomMessageRecordDraftSchema,
})

export const roomMessageRecordSchema = roomMessageRecordType.served
export type RoomMessageRecord = z.infer<typeof roomMessageRecordSchema>
