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

/** Finds a phrase (a token sequence) in folded text, whole tokens only, whatever separates them. */
export function phrasePattern(tokens: readonly string[]): RegExp {
  const escaped = tokens.map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`(?<![${tokenChar}])${escaped.join(`[^${tokenChar}]+`)}(?![${tokenChar}])`, 'gu')
}

/** How many times `pattern` (from `phrasePattern`) occurs in `folded`. */
export function countMatches(pattern: RegExp, folded: string): number {
  pattern.lastIndex = 0
  let count = 0
  while (pattern.exec(folded) !== null) count++
  return count
}
