import { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'

const name = 'room.option'

/**
 * A team option set on one machine: the option's full name (`room.file-overlap`), its value as
 * stored (checked again by the replica's own catalog when applied), and when it was set. Every
 * replica keeps the newest per option, by `setAt` then record id, whatever order records arrive in.
 */
export const roomOptionPayloadSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/, 'an option name is <group>.<name>'),
  value: z.union([z.string().max(200), z.number(), z.boolean()]),
  setAt: z.number().int().nonnegative(),
})
export type RoomOptionPayload = z.infer<typeof roomOptionPayloadSchema>

export const roomOptionRecordDraftSchema = recordDraftSchema(name, roomOptionPayloadSchema)

export const roomOptionRecordType = defineRecordType({
  name,
  description: 'a team option (a house rule, a room setting) set on one machine, for every replica',
  payload: roomOptionPayloadSchema,
  draft: roomOptionRecordDraftSchema,
})

export const roomOptionRecordSchema = roomOptionRecordType.served
export type RoomOptionRecord = z.infer<typeof roomOptionRecordSchema>

/**
 * The record id of a change: `option:<name>@<setAt>=<value>`. Two machines setting one option to
 * one value in one millisecond make one record, which is the same outcome; anything else differs.
 */
export function roomOptionRecordId(payload: RoomOptionPayload): string {
  const value = String(payload.value)
    .replace(/[^A-Za-z0-9._:@+=/-]/g, '_')
    .slice(0, 100)
  return `option:${payload.name}@${payload.setAt}=${value}`
}
