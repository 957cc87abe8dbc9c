import { parseJsonValues } from '../../agents/json-values.ts'
import type { JsonlLine } from '../../agents/jsonl-file-reader.ts'
import { combineOutcomes } from '../../agents/line-outcome.ts'
import type { ReadOutcome, TranscriptReader } from '../../agents/transcript-reader.ts'
import { scrubSecrets } from '../../secrets/core/scrubber.ts'
import { isRecord } from '../../shared/is-record.ts'
import type { UnknownShapeSeen } from '../store/capture-store.ts'
import type { EventInsert } from '../store/event-table.ts'
import type { LineCounters } from '../store/source-file-table.ts'
import type { EventConverter } from './event-converter.ts'

/**
 * Runs lines through a vendor reader and collects what one commit will store: the events (in file
 * order, parts numbered per line), the unknown shapes, and the running counters and reader state.
 * The state and counters carry over from batch to batch; events and shapes are handed out by
 * `take()`.
 */
export class BatchBuilder<State> {
  readonly #reader: TranscriptReader<State>
  readonly #converter: EventConverter
  #state: State
  readonly counters: LineCounters
  #events: EventInsert[] = []
  #shapes: UnknownShapeSeen[] = []
  #lines = 0
  #bytes = 0

  constructor(
    reader: TranscriptReader<State>,
    converter: EventConverter,
    state: State,
    counters: LineCounters,
  ) {
    this.#reader = reader
    this.#converter = converter
    this.#state = state
    this.counters = counters
  }

  get state(): State {
    return this.#state
  }

  /** How the converter has numbered each history so far (stored with the batch). */
  ordinals(): string {
    return this.#converter.ordinals()
  }

  /** Lines and bytes consumed since the last `take()`. */
  get pendingLines(): number {
    return this.#lines
  }

  get pendingBytes(): number {
    return this.#bytes
  }

  add(line: JsonlLine): void {
    this.#lines++
    this.#bytes += line.end - line.start
    if (line.text !== null && isBlank(line.text)) return
    this.counters.lines++
    const values = line.text === null ? null : parseJsonValues(line.text)
    // A record is an object; a scalar or an array on a line is not a transcript record.
    if (values === null || !values.every(isRecord)) {
      this.counters.unparseable++
      return
    }
    const outcomes: ReadOutcome[] = []
    for (const value of values) {
      const step = this.#reader.read(this.#state, value)
      this.#state = step.state
      outcomes.push(step.outcome)
    }
    this.#count(outcomes, line.start)
    let part = 0
    for (const outcome of outcomes) {
      for (const event of outcome.events)
        this.#events.push(this.#converter.convert(event, line.start, part++))
    }
  }

  /** Hands out the events and shapes gathered since the last take. */
  take(): { events: EventInsert[]; unknownShapes: UnknownShapeSeen[] } {
    const taken = { events: this.#events, unknownShapes: this.#shapes }
    this.#events = []
    this.#shapes = []
    this.#lines = 0
    this.#bytes = 0
    return taken
  }

  #count(outcomes: readonly ReadOutcome[], offset: number): void {
    const line = combineOutcomes(outcomes)
    const counters = this.counters
    if (line.class === 'captured') counters.captured++
    else if (line.class === 'unknown') counters.unknown++
    else if (line.class === 'unparseable') counters.unparseable++
    else {
      counters.skipped++
      const reason = line.reason ?? 'unspecified'
      counters.skipReasons[reason] = (counters.skipReasons[reason] ?? 0) + 1
    }
    let cliVersion: string | null | undefined
    for (const outcome of outcomes) {
      counters.encryptedReasoning += outcome.encryptedReasoning ?? 0
      if (!outcome.unknown) continue
      // Shapes are keys and types, but they are stored text like any other.
      const { recordType, signature } = outcome.unknown
      if (cliVersion === undefined) {
        const version = this.#reader.facts(this.#state).cliVersion
        cliVersion = version === null ? null : scrubSecrets(version)
      }
      this.#shapes.push({
        cliVersion,
        recordType: scrubSecrets(recordType),
        signature: scrubSecrets(signature),
        offset,
      })
    }
  }
}

const nonBlank = /\S/

function isBlank(text: string): boolean {
  return text.length === 0 || (text.charCodeAt(0) !== 0x7b && !nonBlank.test(text))
}
