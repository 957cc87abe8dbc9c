import { Writable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { escapeControls, oneLine } from '../shared/terminal-text.ts'
import { displayWidth, WordWrapper } from './word-wrap.ts'

/** What main.ts wraps: process.stdout or process.stderr, or a test's stand-in. */
export type TerminalTarget = NodeJS.WritableStream & {
  readonly isTTY?: boolean | undefined
  readonly columns?: number | undefined
}

/**
 * sangam's own terminal sequences, the only ones that reach the terminal unescaped: a status line
 * drawn again in place (`\r`, the line, erase to its end) and an erased line (the chat clears its
 * prompt before a message). A closed set on purpose: a caller cannot hand it text to pass through.
 */
type OwnSequence = { readonly kind: 'redraw'; readonly line: string } | { readonly kind: 'clear-line' }

class OwnControl {
  readonly sequence: OwnSequence
  constructor(sequence: OwnSequence) {
    this.sequence = sequence
  }
}

/**
 * Every byte the CLI writes to stdout and stderr passes here (main.ts wraps both, D290): control
 * characters in it are shown as escapes (shared/terminal-text.ts), so text someone else wrote
 * (a post, a title, a reason, a handle, an error that echoes input) cannot move the cursor, erase
 * the screen, set the window title or reorder a line, whichever command prints it and however it
 * prints it. JSON written through it stays JSON of the same value. On a terminal (and unless
 * `wrap` is off, for `--json`), lines are also broken at spaces to the terminal's width (D297).
 *
 * Writes go through to the target synchronously while it accepts them, so nothing waits here
 * when the process ends.
 */
export class TerminalStream extends Writable {
  readonly #target: TerminalTarget
  readonly #wrap: boolean
  readonly #wrapper = new WordWrapper()
  readonly #decoder = new StringDecoder('utf8')

  constructor(target: TerminalTarget, options: { readonly wrap: boolean }) {
    super({ objectMode: true, decodeStrings: false })
    this.#target = target
    this.#wrap = options.wrap
  }

  get isTTY(): boolean | undefined {
    return this.#target.isTTY
  }

  get columns(): number | undefined {
    return this.#target.columns
  }

  /** The terminal itself, for readline, which draws its prompt and line editing with sequences of its own. */
  get terminal(): TerminalTarget {
    return this.#target
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = chunk instanceof OwnControl ? this.#own(chunk.sequence) : this.#text(chunk)
    if (text === '' || this.#target.write(text)) done()
    else this.#target.once('drain', () => done())
  }

  override _final(done: (error?: Error | null) => void): void {
    // The target (process.stdout) is not ours to end.
    const rest = this.#decoder.end()
    if (rest === '' || this.#target.write(this.#text(rest))) done()
    else this.#target.once('drain', () => done())
  }

  #text(chunk: unknown): string {
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? this.#decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          : String(chunk)
    const safe = escapeControls(text)
    return this.#wraps() ? this.#wrapper.push(safe, this.#width()) : safe
  }

  #own(sequence: OwnSequence): string {
    if (sequence.kind === 'clear-line') {
      this.#wrapper.reset()
      return '\r\x1b[K'
    }
    // A status line never wraps: cut to the width, so `\r` returns to its start.
    const room = this.#target.isTTY === true ? this.#width() - 1 : Number.POSITIVE_INFINITY
    let line = ''
    let used = 0
    for (const char of oneLine(sequence.line)) {
      used += displayWidth(char)
      if (used > room) break
      line += char
    }
    this.#wrapper.reset(displayWidth(line))
    return `\r${line}\x1b[K`
  }

  #wraps(): boolean {
    return this.#wrap && this.#target.isTTY === true
  }

  #width(): number {
    const columns = this.#target.columns
    return columns !== undefined && columns > 0 ? columns : 80
  }
}

/** Where a status line goes: a TerminalStream in the CLI, anything writable in a unit test. */
export interface TextSink {
  write(text: string): unknown
}

/** A status line (a progress bar) drawn again in place; for terminals only. */
export function redrawLine(stream: TextSink, line: string): void {
  if (stream instanceof TerminalStream) stream.write(new OwnControl({ kind: 'redraw', line }))
  else stream.write(`\r${oneLine(line)}\x1b[K`)
}

/** Erases the line the cursor is on and returns to its start; for terminals only. */
export function clearLine(stream: TextSink): void {
  if (stream instanceof TerminalStream) stream.write(new OwnControl({ kind: 'clear-line' }))
  else stream.write('\r\x1b[K')
}

/**
 * The terminal under `stream`, for readline alone (it draws its prompt and the line being typed
 * with cursor sequences of its own; what it shows is what the person types). Everything else
 * writes to `stream`.
 */
export function readlineOutput(stream: NodeJS.WritableStream): NodeJS.WritableStream {
  return stream instanceof TerminalStream ? stream.terminal : stream
}
