import type { ThreadAudience, ThreadLifetime } from './thread.ts'

/**
 * What opening a thread takes, whichever surface it comes from: `sangam thread-open`, the MCP
 * tool `room_thread_open` and the dashboard's `POST /api/threads`. Each surface parses its own
 * wire and leaves out what it was not given; `withThreadOpenDefaults` fills in the rest, so the defaults
 * exist here only. Zod-free (types only from thread.ts); the CLI's flags quote the defaults and
 * cli/commands/room/inputs.test.ts keeps them equal.
 */

export interface OpenThreadInput {
  readonly title: string
  readonly reason: string | null
  readonly audience: ThreadAudience
  readonly lifetime: ThreadLifetime
  readonly participants: readonly string[]
  readonly paths: readonly string[]
}

/** The most characters a thread's title may have, after trimming. */
export const maxThreadTitleChars = 200

export const defaultThreadAudience = 'agents' satisfies ThreadAudience
export const defaultThreadLifetime = 'durable' satisfies ThreadLifetime

/** A thread as a surface gives it: the title, and whatever else was said. */
export interface OpenThreadGiven {
  readonly title: string
  readonly reason?: string | null | undefined
  readonly audience?: ThreadAudience | undefined
  readonly lifetime?: ThreadLifetime | undefined
  readonly participants?: readonly string[] | undefined
  readonly paths?: readonly string[] | undefined
}

/** A thread as given, with what was left out filled in: a durable thread among agents, no reason, nobody named. */
export function withThreadOpenDefaults(given: OpenThreadGiven): OpenThreadInput {
  return {
    title: given.title,
    reason: given.reason ?? null,
    audience: given.audience ?? defaultThreadAudience,
    lifetime: given.lifetime ?? defaultThreadLifetime,
    participants: given.participants ?? [],
    paths: given.paths ?? [],
  }
}
