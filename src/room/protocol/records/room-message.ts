import { z } from 'zod'
import { actorSchema } from '../../../identity/protocol/actor.ts'
import { defineRecordType, isoTimeSchema, recordIdSchema } from '../../../records/protocol/record-type.ts'
import { messageSchema } from '../message.ts'

const name = 'room.message'

/** What a client pushes for a message it posted; the record id is the message id. */
export const roomMessageRecordDraftSchema = z
  .object({
    id: recordIdSchema,
    type: z.literal(name),
    actor: actorSchema,
    at: isoTimeSchema,
    payload: messageSchema,
  })
  .refine((draft) => draft.id === draft.payload.id, {
    message: 'a room message record carries its message id as its record id',
    path: ['id'],
  })

export const roomMessageRecordType = defineRecordType({
  name,
  description: 'a message posted in the room, pushed by the machine it was posted on',
  payload: messageSchema,
  draft: roomMessageRecordDraftSchema,
})

export const roomMessageRecordSchema = roomMessageRecordType.served
export type RoomMessageRecord = z.infer<typeof roomMessageRecordSchema>
