import { quoteInput } from '../../shared/quote-input.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { searchTokens } from './search-tokens.ts'

/** What a user's search text becomes: the FTS5 MATCH expression and the terms it was built from. */
export interface SearchQuery {
  /** An FTS5 query in which every term is a quoted string, so no user text is FTS5 syntax. */
  readonly match: string
  /** Words and phrases as the user meant them, for display. */
  readonly terms: readonly string[]
  /** Each term as the index's tokens, for ranking. */
  readonly phrases: readonly (readonly string[])[]
  /** Each term alone as an FTS5 query, to ask how common it is. */
  readonly termMatches: readonly string[]
}

/** More terms than this is a paste, not a query; FTS5 would still answer, slowly. */
export const maxSearchTerms = 32

/**
 * Turns search text into an FTS5 query that matches events containing every term. A term is a word,
 * or a phrase in double quotes (an unclosed quote runs to the end). Each term becomes an FTS5 string
 * (`"…"` with inner quotes doubled), so `*`, `-`, `:`, `(`, `^`, `AND`, `OR`, `NEAR` typed by a user
 * are text, never operators: no injection and no syntax errors. The tokenizer then splits a term the
 * way it split the stored text, so `foo-bar` finds the words foo and bar side by side.
 */
export function buildSearchQuery(text: string): SearchQuery {
  // SQLite reads a NUL byte as the end of the query text ("unterminated string").
  if (text.includes('\u0000'))
    throw new SangamError(ErrorCode.InvalidInput, `a search cannot hold a NUL byte; got ${quoteInput(text)}`)
  const terms = splitTerms(text).filter((term) => searchTokens(term).length > 0)
  if (terms.length === 0) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      text.trim() === ''
        ? 'search needs at least one word'
        : `nothing to search for in ${quoteInput(text)}: a search needs letters or digits`,
    )
  }
  if (terms.length > maxSearchTerms) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `a search takes at most ${maxSearchTerms} words or phrases; got ${terms.length}`,
    )
  }
  const termMatches = terms.map(ftsString)
  return { match: termMatches.join(' AND '), terms, phrases: terms.map(searchTokens), termMatches }
}

function splitTerms(text: string): string[] {
  const terms: string[] = []
  const pattern = /"([^"]*)"?|(\S+?)(?=\s|"|$)/gu
  for (const match of text.matchAll(pattern)) {
    const term = (match[1] ?? match[2] ?? '').trim().replace(/\s+/g, ' ')
    if (term !== '') terms.push(term)
  }
  return terms
}

function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}
