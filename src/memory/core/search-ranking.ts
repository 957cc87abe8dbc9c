import type { EventKind } from '../protocol/event.ts'
import { countPhrase, foldForSearch } from './search-tokens.ts'

/**
 * How much an event's kind counts in search ranking. For the same textual relevance the human's own
 * words (and notes, written on purpose) come first, then what the assistant said, then its thinking
 * and system records, then tool calls and their output: most of the bytes, and mostly echoes.
 */
export const kindWeights: Readonly<Record<EventKind, number>> = {
  human: 1,
  note: 1,
  assistant: 0.8,
  thinking: 0.7,
  system: 0.7,
  tool_call: 0.6,
  tool_output: 0.6,
}

/** A matching event as ranking sees it. */
export interface Candidate {
  readonly seq: number
  readonly kind: EventKind
  /** ms epoch */
  readonly at: number
  readonly text: string
}

export interface RankedCandidate extends Candidate {
  /** Kind-weighted relevance: higher is better. */
  readonly score: number
}

/** How many stored events contain a term, and how many events there are. */
export interface TermRarity {
  readonly documents: number
  readonly total: number
}

const k1 = 1.2
const b = 0.75

/** BM25's inverse document frequency, in the form that never goes negative for common terms. */
export function inverseDocumentFrequency(rarity: TermRarity): number {
  const n = Math.min(rarity.documents, rarity.total)
  return Math.log(1 + (rarity.total - n + 0.5) / (n + 0.5))
}

/**
 * Orders candidates best first: BM25 over the query's phrases (term frequency saturated, long texts
 * discounted against the candidates' average length, in characters), times the kind's weight; then
 * newer; then later stored. Equal text therefore ranks a human turn above tool output, and equal
 * kind and text ranks the newer event first.
 */
export function rankCandidates(
  candidates: readonly Candidate[],
  phrases: readonly (readonly string[])[],
  rarities: readonly TermRarity[],
): RankedCandidate[] {
  const idf = rarities.map(inverseDocumentFrequency)
  const folded = candidates.map((candidate) => foldForSearch(candidate.text))
  const averageLength = folded.reduce((sum, text) => sum + text.length, 0) / (folded.length || 1)
  return candidates
    .map((candidate, index) => {
      const text = folded[index] ?? ''
      const lengthNorm = 1 - b + (b * text.length) / (averageLength || 1)
      const relevance = phrases.reduce((sum, phrase, term) => {
        const frequency = countPhrase(text, phrase)
        return sum + ((idf[term] ?? 0) * frequency * (k1 + 1)) / (frequency + k1 * lengthNorm)
      }, 0)
      return { ...candidate, score: relevance * kindWeights[candidate.kind] }
    })
    .sort(compareRanked)
}

/** Best first: higher score, then newer, then later stored, so the order is total. */
export function compareRanked(a: RankedCandidate, b: RankedCandidate): number {
  return b.score - a.score || b.at - a.at || b.seq - a.seq
}
