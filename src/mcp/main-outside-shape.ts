import { z } from 'zod'

/**
 * `mainOutside` in `lane_status` and `room_board`: main moved outside sangam (D300), or null. An
 * agent tells its human; accepting or restoring is the human's (`accept`, `restore`).
 */
export const mainOutsideShape = z
  .object({
    where: z.enum(['here', 'remote']),
    branch: z.string(),
    commit: z.string().nullable(),
    recorded: z.string(),
    recordedAt: z.number(),
    recordedHow: z.string(),
    recordedBy: z.string().nullable(),
    accept: z.string().nullable(),
    restore: z.string(),
  })
  .nullable()
