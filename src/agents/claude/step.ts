import type { ReadEvent, ReadOutcome, SkipReason } from '../transcript-reader.ts'
import type { ClaudeState } from './claude-state.ts'
import { type Envelope, makeEvent } from './envelope.ts'

/** One turn of the reader's state machine. */
export interface Step {
  readonly state: ClaudeState
  readonly outcome: ReadOutcome
}

const noEvents: readonly ReadEvent[] = []

/** Captured if there is anything to capture, else skipped with `otherwise`. */
export function capturedOr(
  events: readonly ReadEvent[],
  otherwise: SkipReason,
  encryptedReasoning = 0,
): ReadOutcome {
  const counted = encryptedReasoning > 0 ? { encryptedReasoning } : {}
  if (events.length === 0) return { class: 'skipped', reason: otherwise, events: noEvents, ...counted }
  return { class: 'captured', events, ...counted }
}

/** A step that leaves the state alone and yields one event, or skips `empty` if there is no text. */
export function oneEvent(
  state: ClaudeState,
  envelope: Envelope,
  kind: ReadEvent['kind'],
  text: string,
  extra?: { toolName?: string | null; callId?: string | null },
): Step {
  if (text.trim() === '') return { state, outcome: skipped('empty') }
  return { state, outcome: { class: 'captured', events: [makeEvent(envelope, kind, text, extra)] } }
}

export function skipped(reason: SkipReason): ReadOutcome {
  return { class: 'skipped', reason, events: noEvents }
}

/**
 * A record this reader does not know, named for `doctor`: `recordType` is the type (with its
 * subtype, e.g. `attachment/foo`), `signature` the record's sorted top-level keys.
 */
export function unknownRecord(recordType: string, record: unknown): ReadOutcome {
  const signature =
    typeof record === 'object' && record !== null && !Array.isArray(record)
      ? Object.keys(record).sort().join(',')
      : ''
  return { class: 'unknown', events: noEvents, unknown: { recordType, signature } }
}

/** `(null)`, `(array)`, `(number)`…: what a JSON value that is not an object is, for `doctor`. */
export function valueTypeName(value: unknown): string {
  if (value === null) return '(null)'
  if (Array.isArray(value)) return '(array)'
  return `(${typeof value})`
}
