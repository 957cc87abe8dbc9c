import type { Clock } from '../../shared/clock.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { parseSince } from '../../shared/time-window.ts'
import type { Db } from '../../store/database.ts'
import { buildSearchQuery, type SearchQuery } from '../core/search-query.ts'
import { rankCandidates } from '../core/search-ranking.ts'
import { defaultSearchLimit, maxSearchLimit, type SearchInput } from '../protocol/search-input.ts'
import type { SearchHit, SearchResult } from '../protocol/search-view.ts'
import { EventSearch, type EventSearchFilters } from '../store/event-search.ts'
import type { StoredEvent } from '../store/event-table.ts'
import { boundText } from './bounded-text.ts'

export type { SearchInput } from '../protocol/search-input.ts'
export type { SearchHit, SearchResult } from '../protocol/search-view.ts'

export const hitTextChars = 500
/** How many of the newest matches ranking looks at: the store's constant, written into its SQL. */
export { rankedCandidates } from '../store/event-search.ts'

/** Search over the replica, shared by `sangam search` and `ctx_search`. */
export class MemorySearch {
  readonly #search: EventSearch
  readonly #clock: Clock

  constructor(db: Db, clock: Clock) {
    this.#search = new EventSearch(db)
    this.#clock = clock
  }

  search(input: SearchInput): SearchResult {
    const query = buildSearchQuery(input.text)
    const window = searchWindow(input, this.#clock.now())
    const limit = input.limit ?? defaultSearchLimit
    if (!Number.isInteger(limit) || limit < 1 || limit > maxSearchLimit) {
      throw new SangamError(
        ErrorCode.InvalidInput,
        `--limit must be a whole number from 1 to ${maxSearchLimit}`,
      )
    }
    const filters = {
      ...window,
      vendor: input.vendor,
      kinds: input.kinds,
      sessionId: input.sessionId,
      branch: input.branch,
      author: input.author,
      cwdUnder: input.cwdUnder,
    }
    return {
      terms: query.terms,
      since: window.since === undefined ? null : new Date(window.since).toISOString(),
      until: window.until === undefined ? null : new Date(window.until).toISOString(),
      hits: this.#rankedHits(query, filters, limit).map(toHit),
    }
  }

  #rankedHits(query: SearchQuery, filters: EventSearchFilters, limit: number): ScoredHit[] {
    // Nothing stored since the window opened: every match would be read only to be filtered out.
    const latest = this.#search.latestAt()
    if (latest === null || (filters.since !== undefined && latest < filters.since)) return []
    const candidates = this.#search.candidates(query.match, filters)
    if (candidates.length === 0) return []
    const total = this.#search.totalEvents()
    const rarities = query.termMatches.map((match) => ({
      documents: this.#search.estimateMatches(match, total),
      total,
    }))
    const ranked = rankCandidates(candidates, query.phrases, rarities).slice(0, limit)
    const scores = new Map(ranked.map((candidate) => [candidate.seq, candidate.score]))
    return this.#search
      .hits(
        ranked.map((candidate) => candidate.seq),
        query.match,
      )
      .map((hit) => ({ ...hit, score: scores.get(hit.event.seq) ?? 0 }))
  }
}

interface ScoredHit {
  readonly event: StoredEvent
  readonly snippet: string
  readonly score: number
}

/** `--since all` opens the window; otherwise it starts 14 days back unless told. */
function searchWindow(
  input: SearchInput,
  now: number,
): { since?: number | undefined; until?: number | undefined } {
  const since = input.since?.trim().toLowerCase() === 'all' ? undefined : parseSince(input.since, now)
  const until = input.until === undefined ? undefined : parseSince(input.until, now, '--until')
  return { since, until }
}

function toHit({ event, snippet, score }: ScoredHit): SearchHit {
  const bounded = boundText(event.text, hitTextChars)
  return {
    id: event.id,
    kind: event.kind,
    vendor: event.vendor,
    cliVersion: event.cliVersion,
    sessionId: event.sessionId,
    author: event.author,
    at: event.at,
    cwd: event.cwd,
    branch: event.branch,
    toolName: event.toolName,
    snippet,
    text: bounded.text,
    truncated: bounded.truncated,
    score,
  }
}
