import type { z } from 'zod'
import { defineRecordType, recordDraftSchema } from '../../../records/protocol/record-type.ts'
import { machineNamePayloadSchema } from '../machine.ts'

const name = 'room.machine'

/** What a machine pushes when its readable name is new to the team or changed. */
export const roomMachineRecordDraftSchema = recordDraftSchema(name, machineNamePayloadSchema)

/** A machine's readable name; the replica keeps the newest per machine. */
export const roomMachineRecordType = defineRecordType({
  name,
  description: "a machine's readable name (its hostname, or the one its user set), pushed by that machine",
  payload: machineNamePayloadSchema,
  draft: roomMachineRecordDraftSchema,
})

export const roomMachineRecordSchema = roomMachineRecordType.served
export type RoomMachineRecord = z.infer<typeof roomMachineRecordSchema>
