import * as crypto from 'node:crypto'
import { scrubSecrets } from '../../core/secrets/scrubber.ts'
import type { EventInsert } from '../../store/memory/event-table.ts'
import type { ReadEvent, TranscriptVendor } from '../../transcripts/transcript-reader.ts'

/** Tool output keeps at most this many characters; the full size is recorded beside it. */
export const maxToolOutputChars = 16 * 1024
/**
 * Tool output is scrubbed over a window wider than what is kept, so that a secret straddling the
 * cut (a private key block, a long token) is recognised whole before the cut can halve it.
 */
const toolOutputScrubWindow = 2 * maxToolOutputChars

/**
 * A deterministic event id: `ev_` + 24 hex of sha256(source path, byte offset of the line, part).
 * Reading the same line again (after a crash, or a rewrite of the file) gives the same id, so the
 * unique index turns a replay into a no-op.
 */
export function eventId(sourcePath: string, byteOffset: number, part: number): string {
  return `ev_${sha256Hex(`${sourcePath}\0${byteOffset}\0${part}`).slice(0, 24)}`
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
  readonly path: string
  readonly vendor: TranscriptVendor
  readonly sourceFileId: number
  /** The project's human: an agent session acts for its human. */
  readonly author: string
}

/**
 * Turns what a reader produced into rows: id, author, and every stored text field scrubbed
 * (text, cwd, branch, tool name). cwd and branch repeat on every line of a session, so their last
 * scrubbed value is remembered.
 */
export class EventConverter {
  readonly #source: EventSource
  readonly #scrubbed = new Map<string, string>()

  constructor(source: EventSource) {
    this.#source = source
  }

  convert(event: ReadEvent, byteOffset: number, part: number): EventInsert {
    const bounded = event.kind === 'tool_output' ? boundToolOutput(event.text) : scrubSecrets(event.text)
    return {
      id: eventId(this.#source.path, byteOffset, part),
      kind: event.kind,
      vendor: this.#source.vendor,
      cliVersion: event.cliVersion,
      sessionId: event.sessionId,
      author: this.#source.author,
      cwd: this.#scrubRepeated(event.cwd),
      branch: this.#scrubRepeated(event.branch),
      at: event.at,
      sourceFileId: this.#source.sourceFileId,
      byteOffset,
      part,
      toolName: this.#scrubRepeated(event.toolName),
      callId: event.callId,
      joinKey: event.joinKey,
      text: bounded,
      fullSize: event.text.length,
      shareable: event.kind !== 'tool_output',
    }
  }

  #scrubRepeated(value: string | null): string | null {
    if (value === null) return null
    let scrubbed = this.#scrubbed.get(value)
    if (scrubbed === undefined) {
      if (this.#scrubbed.size > 256) this.#scrubbed.clear()
      scrubbed = scrubSecrets(value)
      this.#scrubbed.set(value, scrubbed)
    }
    return scrubbed
  }
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
