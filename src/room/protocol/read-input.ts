/**
 * What reading the room takes, whichever surface asks: `sangam read`, the MCP tool `room_read`
 * and the dashboard's `GET /api/messages`. Each parses its own wire (flags, JSON, a query string)
 * and leaves out what it was not given; `withReadDefaults` fills in the rest, so the defaults exist here
 * only. Zod-free: `sangam read` loads no zod. The CLI's flags quote the limits without importing
 * them (--help loads no feature code); cli/commands/room/inputs.test.ts keeps the two equal.
 */

export interface ReadInput {
  /** A message id: only what comes after it in the room's order. */
  readonly after: string | null
  readonly limit: number
}

export const defaultReadLimit = 50
export const maxReadLimit = 500

/** A read as given, with what was left out filled in: the latest `defaultReadLimit` messages. */
export function withReadDefaults(given: {
  readonly after?: string | null | undefined
  readonly limit?: number | undefined
}): ReadInput {
  return { after: given.after ?? null, limit: given.limit ?? defaultReadLimit }
}
