/**
 * Text as the event index sees it (`unicode61 remove_diacritics 2`): tokens are runs of letters,
 * digits and private-use characters, folded to lower case without diacritics. Ranking counts query
 * words in candidate texts with these, so it must cut and fold text the way the index does.
 */
const tokenChar = '\\p{L}\\p{N}\\p{Co}'
const separator = new RegExp(`[^${tokenChar}]+`, 'u')

export function foldForSearch(text: string): string {
  const lower = text.toLowerCase()
  // Only non-ASCII text can carry diacritics; skipping the normalisation keeps ranking cheap.
  return /[\u0080-\u{10ffff}]/u.test(lower) ? lower.normalize('NFKD').replace(/\p{M}+/gu, '') : lower
}

export function searchTokens(text: string): string[] {
  return foldForSearch(text)
    .split(separator)
    .filter((token) => token !== '')
}

const tokenCharPattern = new RegExp(`[${tokenChar}]`, 'u')

/** Whether the character at `index` belongs to a token (ASCII decided by code, the rest by Unicode class). */
function isTokenCharAt(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false
  const code = text.charCodeAt(index)
  if (code < 128)
    return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
  return tokenCharPattern.test(text.slice(index, index + 2))
}

/**
 * How many times a phrase (a token sequence, as `searchTokens` gives it) occurs in folded text:
 * whole tokens only, separated by anything that is not a token. Found with `indexOf` and checked by
 * hand, because ranking runs it over every candidate and a Unicode-aware regex was the slowest part.
 */
export function countPhrase(folded: string, phrase: readonly string[]): number {
  const [first, ...rest] = phrase
  if (first === undefined) return 0
  let count = 0
  for (let at = folded.indexOf(first); at !== -1; at = folded.indexOf(first, at + 1)) {
    if (isTokenCharAt(folded, at - 1)) continue
    const end = matchRest(folded, at + first.length, rest)
    if (end !== -1 && !isTokenCharAt(folded, end)) count++
  }
  return count
}

/** Where the phrase ends if `tokens` follow `from` (each after at least one separator), else -1. */
function matchRest(text: string, from: number, tokens: readonly string[]): number {
  let at = from
  for (const token of tokens) {
    if (isTokenCharAt(text, at)) return -1
    while (at < text.length && !isTokenCharAt(text, at)) at++
    if (!text.startsWith(token, at)) return -1
    at += token.length
  }
  return at
}
