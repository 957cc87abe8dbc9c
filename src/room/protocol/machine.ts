import { z } from 'zod'
import { machineNamePattern } from '../../identity/protocol/machine-name.ts'

/**
 * A machine's readable name, as it tells the team: its hostname by default, or what its user set
 * (`sangam identify --machine NAME`). The id (`m_` + 16 hex, one per data dir) stays the key; the
 * name is what every view shows. Shared through `room.machine` records; the newest per machine wins.
 */

export const machineNamePayloadSchema = z.object({
  /** The machine's stable id (config/machine-id.ts). */
  machine: z.string().min(1).max(100),
  name: z.string().regex(machineNamePattern, 'a machine name is 1–40 letters, digits, ".", "_" or "-"'),
  /** ms epoch of the change; a newer one wins. */
  updatedAt: z.number().int(),
})
export type MachineNamePayload = z.infer<typeof machineNamePayloadSchema>
