import type { Handoff, MessageKind } from './message.ts'

/**
 * What a post takes, whichever surface it comes from: `sangam post`, the MCP tools `room_post`
 * and `room_handoff`, the dashboard's `POST /api/messages` (and the last word of a thread it opens
 * or closes). Each surface parses its own wire and leaves out what it was not given; `withPostDefaults`
 * fills in the rest, so the defaults exist here only. Zod-free (types only from message.ts).
 */

export interface PostInput {
  readonly text: string
  /** `--to` tokens: `@handle`, `@human`, `#worktree`, or a bare name. */
  readonly to: readonly string[]
  readonly kind: MessageKind
  readonly topic: string | null
  readonly threadId: string | null
  readonly handoff?: Handoff | null | undefined
}

/** A post as a surface gives it: the text, and whatever else was said. */
export interface PostGiven {
  readonly text: string
  readonly to?: readonly string[] | undefined
  readonly kind?: MessageKind | undefined
  readonly topic?: string | null | undefined
  readonly threadId?: string | null | undefined
}

/** A post as given, with what was left out filled in: a plain message to the whole room, no topic, no thread. */
export function withPostDefaults(given: PostGiven): PostInput {
  return {
    text: given.text,
    to: given.to ?? [],
    kind: given.kind ?? 'message',
    topic: given.topic ?? null,
    threadId: given.threadId ?? null,
  }
}
