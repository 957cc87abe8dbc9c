import { z } from 'zod'

/**
 * A session's presence in the room, as one machine saw it last: who (vendor, session, handle),
 * where (worktree, branch, machine) and a stored state. `blocked` is never stored: it is derived
 * from the threads (room/core/presence-state.ts). Humans in `chat` have presence too, vendor
 * `human` and a session id per chat run.
 */
export const presenceVendorSchema = z.enum(['claude', 'codex', 'gemini', 'opencode', 'human'])
export type PresenceVendor = z.infer<typeof presenceVendorSchema>

export const storedPresenceStates = ['online', 'idle', 'offline'] as const
export const storedPresenceStateSchema = z.enum(storedPresenceStates)
export type StoredPresenceState = z.infer<typeof storedPresenceStateSchema>

/** A handle, without `@`: lowercase letters, digits and inner dashes. */
export const handlePattern = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/

export const presencePayloadSchema = z.object({
  vendor: presenceVendorSchema,
  sessionId: z.string().min(1).max(200),
  handle: z.string().regex(handlePattern, 'a handle is lowercase letters, digits and inner dashes'),
  /** True once `identify` chose the handle: later presence of the session keeps it. */
  handleClaimed: z.boolean(),
  /** The human the session acts for. */
  human: z.string().min(1),
  /** Absolute path of the worktree, when known. */
  worktree: z.string().min(1).nullable(),
  /** null when detached or unknown. */
  branch: z.string().min(1).nullable(),
  /** The stable id of the machine (one per data dir) that wrote it. */
  machine: z.string().min(1).max(100),
  state: storedPresenceStateSchema,
  /** ms epoch of the change; a newer one wins. */
  updatedAt: z.number().int(),
  /** ms epoch the session was first seen by its machine: handles de-duplicate in this order. */
  firstSeenAt: z.number().int(),
})
export type PresencePayload = z.infer<typeof presencePayloadSchema>
