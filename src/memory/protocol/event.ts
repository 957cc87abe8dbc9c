import { z } from 'zod'
import { type EventKind, eventKinds } from '../../shared/event-kinds.ts'
import { vendorNames } from '../../shared/vendor-names.ts'

/**
 * An event is one normalised record captured from a transcript (or a note, the one voluntary
 * write). This schema is the shape that leaves a process: `--json` output, MCP structured output,
 * and, once a server is attached, what is shared with the team.
 */
export const eventKindSchema = z.enum(eventKinds)
export type { EventKind }

/** `sangam` is the vendor of notes: they come from sangam itself, not from an agent's transcript. */
export const vendorSchema = z.enum([...vendorNames, 'sangam'])
export type Vendor = z.infer<typeof vendorSchema>

export const eventSchema = z.object({
  /**
   * Deterministic: derived from the event's history (its session, a subagent, a parent's copied
   * history), its number there and its scrubbed content, so a replay, a move or a copy of the
   * history yields the same id, and changed words a new one.
   */
  id: z.string(),
  kind: eventKindSchema,
  vendor: vendorSchema,
  cliVersion: z.string().nullable(),
  sessionId: z.string(),
  /** The human this event belongs to (an agent session acts for its human). */
  author: z.string(),
  cwd: z.string().nullable(),
  branch: z.string().nullable(),
  /** ISO-8601 UTC. */
  at: z.string(),
  /** Absolute path of the transcript the event came from; null for notes. */
  sourcePath: z.string().nullable(),
  byteOffset: z.number().int().nonnegative().nullable(),
  part: z.number().int().nonnegative(),
  toolName: z.string().nullable(),
  callId: z.string().nullable(),
  /** Scrubbed text, bounded for tool output. */
  text: z.string(),
  /** Size in characters of the text before it was bounded. */
  fullSize: z.number().int().nonnegative(),
  /** Tool output stays on this machine unless the project opts in. */
  shareable: z.boolean(),
})
export type Event = z.infer<typeof eventSchema>
