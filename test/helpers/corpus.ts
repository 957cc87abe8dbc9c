import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseJsonValues } from '../../src/agents/json-values.ts'
import { combineOutcomes, type LineOutcome } from '../../src/agents/line-outcome.ts'
import type { ReadEvent, ReadOutcome, TranscriptReader } from '../../src/agents/transcript-reader.ts'

/** The shared corpus of real transcripts (read-only), see /work/shared/corpus/SOURCES.md. */
export const corpusDir = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus')

export function corpusFiles(vendor: 'claude' | 'codex'): string[] {
  const real = readdirSync(join(corpusDir, vendor)).map((name) => join(corpusDir, vendor, name))
  const prefix = vendor === 'claude' ? 'agentlab__claude-code-' : 'agentlab__codex-'
  const generated = readdirSync(join(corpusDir, 'generated'))
    .filter((name) => name.startsWith(prefix) && name.endsWith('.jsonl') && !name.includes('hook-payloads'))
    .map((name) => join(corpusDir, 'generated', name))
  return [...real, ...generated].sort()
}

export interface CorpusLine {
  readonly lineNo: number
  readonly outcome: LineOutcome
  readonly outcomes: readonly ReadOutcome[]
  readonly events: readonly ReadEvent[]
}

export interface CorpusRead<State> {
  readonly lines: readonly CorpusLine[]
  readonly events: readonly ReadEvent[]
  readonly state: State
}

/**
 * Reads a whole transcript file through a reader, the way capture does, without a database:
 * every non-blank line is parsed (several values per line allowed) and accounted for.
 */
export function readTranscriptFile<State>(path: string, reader: TranscriptReader<State>): CorpusRead<State> {
  const text = readFileSync(path, 'utf8')
  let state = reader.initialState()
  const lines: CorpusLine[] = []
  const events: ReadEvent[] = []
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') return
    const values = parseJsonValues(line)
    const outcomes: ReadOutcome[] = []
    for (const value of values ?? []) {
      // Round-trip the state through its serialised form, as capture does at every commit.
      const step = reader.read(reader.restore(reader.serialise(state)), value)
      state = step.state
      outcomes.push(step.outcome)
    }
    const lineEvents = outcomes.flatMap((outcome) => outcome.events)
    events.push(...lineEvents)
    lines.push({ lineNo: index + 1, outcome: combineOutcomes(outcomes), outcomes, events: lineEvents })
  })
  return { lines, events, state }
}
