import type { Clock } from '../../shared/clock.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import type { EventKind, Vendor } from '../protocol/event.ts'
import type { StoredEvent } from '../store/event-table.ts'
import { EventTimeline, type LatestActivity, type TimelinePosition } from '../store/event-timeline.ts'
import { boundText } from './bounded-text.ts'
import { MemorySearch } from './search.ts'

/** Whose events: one agent session (its handle resolved by the caller), or one human's sessions. */
export type TimelineActor =
  | { readonly sessionId: string; readonly author?: undefined }
  | { readonly author: string; readonly sessionId?: undefined }

export interface TimelineInput {
  readonly actor?: TimelineActor | undefined
  readonly vendor?: Vendor | undefined
  readonly kinds?: readonly EventKind[] | undefined
  /** An absolute worktree path: events whose `cwd` is in it. */
  readonly worktree?: string | undefined
  /** Search words: the hits of `sangam search` in its ranking, instead of the time order. */
  readonly q?: string | undefined
  /** For `q`: the search window (`--since`'s forms, `all`); the 14-day window when absent. */
  readonly since?: string | undefined
  /** The `next` of the page before: only older events. */
  readonly before?: string | undefined
  readonly limit: number
}

/** One event of the timeline: the fields of a search hit, `snippet` and `score` only for a search. */
export interface TimelineEvent {
  readonly id: string
  readonly kind: EventKind
  readonly vendor: Vendor
  readonly cliVersion: string | null
  readonly sessionId: string
  /** The session's handle in the room, when it has one. */
  readonly handle: string | null
  readonly author: string
  /** ISO-8601. */
  readonly at: string
  readonly cwd: string | null
  readonly branch: string | null
  readonly toolName: string | null
  readonly text: string
  readonly truncated: boolean
  readonly snippet: string | null
  readonly score: number | null
}

export interface TimelinePage {
  readonly events: readonly TimelineEvent[]
  /** Pass as `before` for the next (older) page; null when this page is the last, and for a search. */
  readonly next: string | null
}

export const defaultTimelineLimit = 50
export const maxTimelineLimit = 200
/** A timeline event's text is cut here; the thread shows it whole. */
export const timelineTextChars = 2000

/**
 * The dashboard's timeline: every captured event, newest first, narrowed by actor, vendor, kinds
 * and worktree; with `q`, `sangam search`'s hits under the same filters instead. `handleOf` names
 * a session by its room handle (the room's directory knows them; memory does not).
 */
export function timeline(
  db: Db,
  clock: Clock,
  input: TimelineInput,
  handleOf: (sessionId: string) => string | null,
): TimelinePage {
  if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > maxTimelineLimit)
    throw new SangamError(
      ErrorCode.InvalidInput,
      `limit must be a whole number from 1 to ${maxTimelineLimit}`,
    )
  const q = input.q?.trim() ?? ''
  if (q !== '') {
    const result = new MemorySearch(db, clock).search({
      text: q,
      vendor: input.vendor,
      kinds: input.kinds,
      sessionId: input.actor?.sessionId,
      author: input.actor?.author,
      cwdUnder: input.worktree,
      since: input.since,
      limit: input.limit,
    })
    return {
      events: result.hits.map((hit) => ({ ...hit, handle: handleOf(hit.sessionId), snippet: hit.snippet })),
      next: null,
    }
  }
  const before = input.before === undefined ? null : parsePosition(input.before)
  // One more than asked: whether there is a next page, without a count.
  const rows = new EventTimeline(db).page(
    {
      sessionId: input.actor?.sessionId,
      author: input.actor?.author,
      vendor: input.vendor,
      kinds: input.kinds,
      cwdUnder: input.worktree,
    },
    before,
    input.limit + 1,
  )
  const page = rows.slice(0, input.limit)
  const last = page.at(-1)
  return {
    events: page.map((event) => timelineEvent(event, handleOf(event.sessionId))),
    next: rows.length > input.limit && last !== undefined ? positionOf(last) : null,
  }
}

/** A session's newest event, its text cut to `chars` (the dashboard's "what it last did"). */
export function latestSessionActivity(db: Db, sessionId: string, chars: number): LatestActivity | null {
  return new EventTimeline(db).latestOfSession(sessionId, chars)
}

/** A human's newest turn in the last `withinMs`, its text cut to `chars`. */
export function latestHumanTurn(
  db: Db,
  author: string,
  options: { readonly now: number; readonly withinMs: number; readonly chars: number },
): LatestActivity | null {
  return new EventTimeline(db).latestHumanTurn(author, options.now - options.withinMs, options.chars)
}

function timelineEvent(event: StoredEvent, handle: string | null): TimelineEvent {
  const bounded = boundText(event.text, timelineTextChars)
  return {
    id: event.id,
    kind: event.kind,
    vendor: event.vendor,
    cliVersion: event.cliVersion,
    sessionId: event.sessionId,
    handle,
    author: event.author,
    at: event.at,
    cwd: event.cwd,
    branch: event.branch,
    toolName: event.toolName,
    text: bounded.text,
    truncated: bounded.truncated,
    snippet: null,
    score: null,
  }
}

/** `<ms epoch>.<seq>`: where the next page starts; opaque to the page. */
function positionOf(event: StoredEvent): string {
  return `${Date.parse(event.at)}.${event.seq}`
}

function parsePosition(text: string): TimelinePosition {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(text)
  if (match === null)
    throw new SangamError(ErrorCode.InvalidInput, 'before must be the next of an earlier timeline page')
  return { at: Number(match[1]), seq: Number(match[2]) }
}
