import * as crypto from 'node:crypto'
import type { ReadEvent, TranscriptVendor } from '../../agents/transcript-reader.ts'
import { scrubSecrets } from '../../secrets/core/scrubber.ts'
import type { EventKind } from '../protocol/event.ts'
import type { EventInsert } from '../store/event-table.ts'

/** Tool output keeps at most this many characters; the full size is recorded beside it. */
export const maxToolOutputChars = 16 * 1024
/**
 * Tool output is scrubbed over a window wider than what is kept, so that a secret straddling the
 * cut (a private key block, a long token) is recognised whole before the cut can halve it.
 */
const toolOutputScrubWindow = 2 * maxToolOutputChars

/** What an event id is derived from: never where the event sits in a file, always what it says. */
export interface EventIdentity {
  readonly vendor: TranscriptVendor
  /** The history the event belongs to (its session, or a subagent of it), scrubbed. */
  readonly thread: string
  /** How many events of that history came before it. */
  readonly ordinal: number
  readonly kind: EventKind
  readonly toolName: string | null
  readonly callId: string | null
  /** The text as stored: scrubbed, and bounded for tool output. */
  readonly text: string
}

/**
 * A deterministic event id: `ev_` + 24 hex of sha256 over the event's history, its number in that
 * history and its stored content. Reading the same file again (after a crash, a restart, a move)
 * numbers the same events the same way, so the unique index turns a replay into a no-op; a file
 * rewritten with other words gives them other ids, so the team receives them; a forked thread's
 * copy of its parent's history gives the ids the parent's own file gives, so the two are stored
 * once. Only scrubbed text is hashed: an id must not let anyone test guesses of a secret.
 */
export function eventId(identity: EventIdentity): string {
  const { vendor, thread, ordinal, kind, toolName, callId, text } = identity
  return `ev_${sha256Hex(`${vendor}\0${thread}\0${ordinal}\0${kind}\0${toolName ?? ''}\0${callId ?? ''}\0${text}`).slice(0, 24)}`
}

/**
 * The one-shot `crypto.hash` (Node 20.12+) costs a quarter of a `createHash` object per digest,
 * which shows when every event of a backfill gets one; older Node versions take the object.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex')

/** The transcript file events are converted for. */
export interface EventSource {
  readonly vendor: TranscriptVendor
  readonly sourceFileId: number
  /** The project's human: an agent session acts for its human. */
  readonly author: string
}

/**
 * Histories numbered per file, at most. A real file holds one or a few (its session, a replayed
 * parent, subagents); the cap only bounds the state of a garbage file, forgetting the least recent.
 */
const maxThreads = 256

/**
 * Turns what a reader produced into rows: id, author, and every stored text field scrubbed (text,
 * session id, CLI version, cwd, branch, tool name, call id, join key). Those that repeat on every line of a
 * session have their last scrubbed values remembered. It numbers the events of each history as it
 * goes; the numbers are part of the file's progress (`ordinals()`), committed with the events.
 */
export class EventConverter {
  readonly #source: EventSource
  readonly #scrubbed = new Map<string, string>()
  readonly #ordinals: Map<string, number>

  constructor(source: EventSource, ordinals = '{}') {
    this.#source = source
    this.#ordinals = restoreOrdinals(ordinals)
  }

  convert(event: ReadEvent, byteOffset: number, part: number): EventInsert {
    const text = event.kind === 'tool_output' ? boundToolOutput(event.text) : scrubSecrets(event.text)
    const sessionId = this.#scrubRepeated(event.sessionId)
    const toolName = this.#scrubRepeated(event.toolName)
    const callId = this.#scrubRepeated(event.callId)
    const thread = event.thread === undefined ? sessionId : this.#scrubRepeated(event.thread)
    const vendor = this.#source.vendor
    const kind = event.kind
    const ordinal = this.#next(thread)
    return {
      id: eventId({ vendor, thread, ordinal, kind, toolName, callId, text }),
      kind,
      vendor,
      cliVersion: this.#scrubRepeated(event.cliVersion),
      sessionId,
      author: this.#source.author,
      cwd: this.#scrubRepeated(event.cwd),
      branch: this.#scrubRepeated(event.branch),
      at: event.at,
      sourceFileId: this.#source.sourceFileId,
      byteOffset,
      part,
      toolName,
      callId,
      joinKey: this.#scrubRepeated(event.joinKey),
      text,
      fullSize: event.text.length,
      shareable: kind !== 'tool_output',
    }
  }

  /** The numbering so far, stored with the batch. */
  ordinals(): string {
    return JSON.stringify(Object.fromEntries(this.#ordinals))
  }

  #next(thread: string): number {
    const ordinal = this.#ordinals.get(thread) ?? 0
    // Re-inserted last, so the map's order is least recently numbered first.
    this.#ordinals.delete(thread)
    this.#ordinals.set(thread, ordinal + 1)
    if (this.#ordinals.size > maxThreads) {
      const oldest = this.#ordinals.keys().next().value
      if (oldest !== undefined) this.#ordinals.delete(oldest)
    }
    return ordinal
  }

  #scrubRepeated<T extends string | null>(value: T): T {
    if (value === null) return value
    let scrubbed = this.#scrubbed.get(value)
    if (scrubbed === undefined) {
      if (this.#scrubbed.size > 256) this.#scrubbed.clear()
      scrubbed = scrubSecrets(value)
      this.#scrubbed.set(value, scrubbed)
    }
    return scrubbed as T
  }
}

function restoreOrdinals(json: string): Map<string, number> {
  const ordinals = new Map<string, number>()
  try {
    const value: unknown = JSON.parse(json)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return ordinals
    for (const [thread, count] of Object.entries(value)) {
      if (Number.isSafeInteger(count) && count >= 0) ordinals.set(thread, count)
    }
  } catch {
    // A corrupt numbering starts again; ids then repeat only where the content is the same.
  }
  return ordinals
}

/** Scrubs, then keeps the first 16 KiB characters without splitting a surrogate pair. */
export function boundToolOutput(text: string): string {
  const scrubbed = scrubSecrets(
    text.length > toolOutputScrubWindow ? text.slice(0, toolOutputScrubWindow) : text,
  )
  if (scrubbed.length <= maxToolOutputChars) return scrubbed
  const cut = isHighSurrogate(scrubbed.charCodeAt(maxToolOutputChars - 1))
    ? maxToolOutputChars - 1
    : maxToolOutputChars
  return scrubbed.slice(0, cut)
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
