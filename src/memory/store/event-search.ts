import type { Db, Statement } from '../../store/db.ts'
import { cachedStatement } from '../../store/statement-cache.ts'
import type { Candidate } from '../core/search-ranking.ts'
import type { SearchInput } from '../protocol/search-input.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from './event-table.ts'

/**
 * Narrowing applied inside the SQL, so a limit counts only events that pass: the search's own
 * filters, with its window as ms epoch (`since` inclusive, `until` exclusive; undefined, no bound).
 */
export interface EventSearchFilters extends Omit<SearchInput, 'text' | 'since' | 'until' | 'limit'> {
  readonly since?: number | undefined
  readonly until?: number | undefined
}

/** Matched words in a snippet are wrapped in these; they are rare in code and prose alike. */
export const snippetMarks = { open: '«', close: '»', ellipsis: '…' } as const
const snippetTokens = 24
/** Ranking reads this much of each candidate's text: tool output can be 16 KiB, the gist is early. */
export const rankedTextChars = 2000
/**
 * Ranking looks at the newest this many matches. Past it, a common query's older matches are not
 * ranked at all: recall favours recent work, and this keeps a query's cost flat as the store grows.
 */
export const rankedCandidates = 200
/** A term's document frequency is counted exactly up to this, and estimated beyond. */
export const frequencyCap = 1000

/**
 * The FTS5 side of search. FTS5's own bm25() first counts, for every term, all rows in the index
 * that hold it, which for a common word in a million events costs tens of milliseconds before the
 * first row. So the store hands out what ranking needs (`memory/core/search-ranking.ts`) cheaply instead:
 * the newest matching events, and an estimate of each term's document frequency.
 */
export class EventSearch {
  readonly #candidates: Statement
  readonly #frequency: Statement
  readonly #total: Statement
  readonly #latestAt: Statement
  readonly #event: Statement
  readonly #snippets: Statement

  /**
   * The statements are the connection's (`cachedStatement`), prepared by its first search: ctx_search
   * and the dashboard make an EventSearch per query, on a connection they keep.
   */
  constructor(db: Db) {
    // CROSS JOIN keeps event_fts the outer loop, so FTS5 walks its index newest first and stops at
    // the limit; the filters are checked on each event it yields. The limits are constants in the
    // SQL, not bound: the SQLite in Node (3.54) compiles a statement with a bound LIMIT anew on every
    // run (D391).
    this.#candidates = cachedStatement(
      db,
      /*sql*/ `
      SELECT e.seq, e.kind, e.at, substr(e.text, 1, ${rankedTextChars}) AS text
      FROM event_fts AS fts CROSS JOIN event AS e ON e.seq = fts.rowid
      WHERE event_fts MATCH @match
        AND (@vendor IS NULL OR e.vendor = @vendor)
        AND (@kinds IS NULL OR e.kind IN (SELECT value FROM json_each(@kinds)))
        AND (@sessionId IS NULL OR e.session_id = @sessionId)
        AND (@branch IS NULL OR e.branch = @branch)
        AND (@author IS NULL OR e.author = @author)
        AND (@cwdUnder IS NULL OR e.cwd = @cwdUnder OR substr(e.cwd, 1, length(@cwdUnder) + 1) = @cwdUnder || '/')
        AND (@since IS NULL OR e.at >= @since)
        AND (@until IS NULL OR e.at < @until)
      ORDER BY fts.rowid DESC
      LIMIT ${rankedCandidates}`,
    )
    this.#frequency = cachedStatement(
      db,
      /*sql*/ `
      SELECT count(*) AS n, min(rowid) AS oldest
      FROM (SELECT rowid FROM event_fts WHERE event_fts MATCH ? ORDER BY rowid DESC LIMIT ${frequencyCap})`,
    )
    this.#total = cachedStatement(db, 'SELECT coalesce(max(seq), 0) AS n FROM event')
    this.#latestAt = cachedStatement(db, 'SELECT max(at) AS at FROM event')
    this.#event = cachedStatement(db, `${eventSelect} WHERE e.seq = ?`)
    // Not `rowid = @seq`: beside MATCH, SQLite 3.53 hands a bound rowid equality to FTS5, which
    // ignores it and yields every match, oldest first (event-search.test.ts shows it). Nor a range
    // with a lower bound, which FTS5 reaches by walking a common term's matches from the oldest.
    // So: walk the matches newest first from the newest hit, the way the candidates were found,
    // and cut a snippet only for the hits.
    this.#snippets = cachedStatement(
      db,
      /*sql*/ `
      SELECT rowid AS seq,
             CASE WHEN rowid IN (SELECT value FROM json_each(@seqs))
                  THEN snippet(event_fts, 0, @open, @close, @ellipsis, @tokens) END AS snippet
      FROM event_fts WHERE event_fts MATCH @match AND rowid <= @newest
      ORDER BY rowid DESC`,
    )
  }

  /** The newest `rankedCandidates` events that match and pass the filters, newest (by storage order) first. */
  candidates(match: string, filters: EventSearchFilters): Candidate[] {
    return this.#candidates.all({
      match,
      vendor: filters.vendor ?? null,
      kinds: filters.kinds === undefined ? null : JSON.stringify(filters.kinds),
      sessionId: filters.sessionId ?? null,
      branch: filters.branch ?? null,
      author: filters.author ?? null,
      cwdUnder: filters.cwdUnder ?? null,
      since: filters.since ?? null,
      until: filters.until ?? null,
    }) as Candidate[]
  }

  /** How many events there are (the highest storage order: deleted rows only make it larger). */
  totalEvents(): number {
    return (this.#total.get() as { n: number }).n
  }

  /**
   * How many events match `match`: exact up to `frequencyCap`; beyond it, extrapolated from how far
   * back the newest `frequencyCap` matches reach, which costs that many index entries however common
   * the term is.
   */
  estimateMatches(match: string, total: number): number {
    const { n, oldest } = this.#frequency.get(match) as { n: number; oldest: number | null }
    if (n < frequencyCap || oldest === null) return n
    return Math.round((n * total) / Math.max(1, total - oldest + 1))
  }

  /** When the newest event happened (ms epoch), or null for an empty store. */
  latestAt(): number | null {
    return (this.#latestAt.get() as { at: number | null }).at
  }

  /**
   * The stored events of `seqs` (matches of `match`, in the order given) with FTS5's snippet of
   * each (the matched words between `snippetMarks`). Reads the matches from the newest of them down
   * to the oldest, which the candidates that yielded them were read through already.
   */
  hits(seqs: readonly number[], match: string): { event: StoredEvent; snippet: string }[] {
    if (seqs.length === 0) return []
    const wanted = new Set(seqs)
    const oldest = Math.min(...seqs)
    const snippets = new Map<number, string>()
    const rows = this.#snippets.iterate({
      ...snippetMarks,
      tokens: snippetTokens,
      match,
      seqs: JSON.stringify(seqs),
      newest: Math.max(...seqs),
    }) as IterableIterator<{ seq: number; snippet: string | null }>
    for (const row of rows) {
      if (row.snippet !== null && wanted.has(row.seq)) snippets.set(row.seq, row.snippet)
      if (row.seq <= oldest || snippets.size === wanted.size) break
    }
    return seqs.flatMap((seq) => {
      const row = this.#event.get(seq)
      return row === undefined ? [] : [{ event: toStoredEvent(row), snippet: snippets.get(seq) ?? '' }]
    })
  }
}
