import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The shared corpus of real transcripts, read-only (see /work/shared/corpus/SOURCES.md). */
export const corpusDir = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus')

/**
 * Every distinct sentence (20–300 characters, three words or more) of every string in the corpus transcripts: prompts,
 * answers, tool calls and output as the agents really wrote them. Benchmarks draw their text from
 * these so that word frequencies, lengths and code-heavy lines are those of real sessions.
 */
export function transcriptSentences(): string[] {
  const sentences = new Set<string>()
  eachCorpusString((value) => {
    for (const piece of value.split(/(?<=[.!?])\s+|\n+/)) {
      const sentence = piece.trim()
      // Ids and timestamps are strings too; a sentence has words.
      const words = sentence.split(/\s+/).length
      if (sentence.length >= 20 && sentence.length <= 300 && words >= 3) sentences.add(sentence)
    }
  })
  return [...sentences]
}

/** Every string field of the corpus, whole: what capture hands the scrubber. */
export function transcriptFields(): string[] {
  const fields: string[] = []
  eachCorpusString((value) => {
    if (value !== '') fields.push(value)
  })
  return fields
}

/** Hands `visit` every string value, at any depth, of every line of the corpus transcripts. */
function eachCorpusString(visit: (value: string) => void): void {
  const collect = (value: unknown): void => {
    if (typeof value === 'string') visit(value)
    else if (Array.isArray(value)) value.forEach(collect)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect)
  }
  for (const dir of ['claude', 'codex', 'generated']) {
    for (const name of readdirSync(join(corpusDir, dir))) {
      if (!name.endsWith('.jsonl')) continue
      for (const line of readFileSync(join(corpusDir, dir, name), 'utf8').split('\n')) {
        if (line.trim() === '') continue
        try {
          collect(JSON.parse(line))
        } catch {
          // A torn or multi-object line: the strings of other lines are plenty.
        }
      }
    }
  }
}

/** A small seeded generator (mulberry32), so every run builds the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** p-th percentile (0–100) of already sorted numbers. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}
