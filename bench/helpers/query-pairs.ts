import { searchTokens } from '../../src/memory/core/search-tokens.ts'
import type { Db } from '../../src/store/database.ts'
import { seededRandom } from './transcript-sentences.ts'

/**
 * Two-word queries as people type them: both words from one real sentence, so they occur together.
 * Common words are in over 2% of events; rare ones in 200–2,000 of them (0.02–0.2%).
 */
export function queryPairs(
  db: Db,
  sentences: readonly string[],
  eventCount: number,
): Record<string, string[]> {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, event_fts, 'row')`)
  const documents = new Map(
    (db.prepare(`SELECT term, doc FROM temp.vocab`).all() as { term: string; doc: number }[]).map((row) => [
      row.term,
      row.doc,
    ]),
  )
  const isCommon = (word: string): boolean =>
    (documents.get(word) ?? 0) > eventCount * 0.02 && word.length > 2
  const isRare = (word: string): boolean => {
    const n = documents.get(word) ?? 0
    return n >= 200 && n <= 2000 && /^[a-z]{4,}$/.test(word)
  }
  const pairs: Record<string, string[]> = {
    'two common words': [],
    'two rare words': [],
    'common + rare': [],
  }
  const random = seededRandom(7)
  const one = (words: readonly string[]): string => words[Math.floor(random() * words.length)] ?? ''
  for (const sentence of sentences) {
    const words = [...new Set(searchTokens(sentence))]
    const common = words.filter(isCommon)
    const rare = words.filter(isRare)
    if (common.length >= 2)
      pairs['two common words']?.push(`${one(common)} ${one(common.filter((w) => w !== common[0]))}`)
    if (rare.length >= 2) pairs['two rare words']?.push(`${rare[0]} ${rare[1]}`)
    if (common.length >= 1 && rare.length >= 1) pairs['common + rare']?.push(`${one(common)} ${one(rare)}`)
  }
  for (const list of Object.values(pairs)) list.sort(() => random() - 0.5)
  return pairs
}
