import { fstatSync, readSync } from 'node:fs'
import { must } from '../shared/assert.ts'
import { type ByteFingerprint, fingerprintWindow } from './byte-fingerprint.ts'

/** One line of a JSONL file, located by bytes. */
export interface JsonlLine {
  /** Byte offset of the line's first byte. */
  readonly start: number
  /** Byte offset just past the line: past its `\n`, or the end of file for an unterminated line. */
  readonly end: number
  /** The line decoded as UTF-8 (invalid bytes become U+FFFD), without `\n` or a trailing `\r`; null when it was longer than the cap and skipped unread. */
  readonly text: string | null
  /** False for a final line that has no `\n` yet. */
  readonly terminated: boolean
}

export interface JsonlReadOptions {
  /** Bytes read per `read(2)`, at most (a smaller file gets a smaller buffer). */
  readonly chunkBytes?: number | undefined
  /** A line longer than this is reported with `text: null` and never held in memory whole. */
  readonly maxLineBytes?: number | undefined
}

export const defaultMaxLineBytes = 64 * 1024 * 1024
const defaultChunkBytes = 1024 * 1024
const minChunkBytes = 16 * 1024
const newline = 0x0a
const carriageReturn = 0x0d

/**
 * Reads a JSONL file line by line from a byte offset, splitting on `\n` bytes (never on decoded
 * characters, so a multi-byte character can never be cut). Each consumed line extends the
 * fingerprint. A line that spans chunks is gathered piece by piece; past the cap its pieces are
 * dropped as they arrive, so a runaway line costs one chunk of memory, not its size.
 */
export class JsonlFileReader {
  readonly #fd: number
  readonly #fingerprint: ByteFingerprint
  readonly #maxLineBytes: number
  readonly #chunkBytes: number
  /** Allocated at the first read, sized to what the file holds: a daemon tailing a thousand files reads a few bytes of each. */
  #chunk: Buffer | null = null
  #filled = 0
  #cursor = 0
  /** File offset of `#chunk[0]`. */
  #chunkStart: number
  /** Bytes consumed: the end of the last line returned. */
  #position: number
  #pending: PendingLine | null = null

  constructor(fd: number, from: number, fingerprint: ByteFingerprint, options: JsonlReadOptions = {}) {
    this.#fd = fd
    this.#fingerprint = fingerprint
    this.#maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes
    this.#chunkBytes = options.chunkBytes ?? defaultChunkBytes
    this.#chunkStart = from
    this.#position = from
  }

  /** Bytes consumed so far: always the end of a line, so it is safe to store as the file offset. */
  get position(): number {
    return this.#position
  }

  /** Bytes read beyond `position` that do not yet form a line (a line still being written). */
  get pendingBytes(): number {
    return this.#pending?.length ?? 0
  }

  /**
   * The next line, or null at the end of the file. A final line without `\n` is returned only
   * when `takeUnterminated` is true; otherwise its bytes stay pending and a later call (after the
   * writer finished it) returns it whole.
   */
  next(takeUnterminated: boolean): JsonlLine | null {
    for (;;) {
      if (this.#cursor < this.#filled) {
        const line = this.#scan()
        if (line) return line
        continue
      }
      if (!this.#fill()) return takeUnterminated && this.#pending ? this.#finishPending(false) : null
    }
  }

  /** Looks for the end of the current line in the chunk; gathers the piece when there is none. */
  #scan(): JsonlLine | null {
    const chunk = must(this.#chunk)
    const from = this.#cursor
    const at = chunk.indexOf(newline, from)
    const end = at === -1 || at >= this.#filled ? -1 : at
    if (end === -1) {
      this.#gather(from, this.#filled)
      this.#cursor = this.#filled
      return null
    }
    this.#cursor = end + 1
    if (this.#pending) {
      this.#gather(from, end + 1)
      return this.#finishPending(true)
    }
    const bytes = chunk.subarray(from, end + 1)
    const start = this.#chunkStart + from
    const length = end + 1 - from
    const text = length - 1 > this.#maxLineBytes ? null : decodeLine(chunk, from, end)
    this.#fingerprint.consume(bytes, bytes.subarray(Math.max(0, length - fingerprintWindow)), length)
    this.#position = start + length
    return { start, end: this.#position, text, terminated: true }
  }

  #gather(from: number, to: number): void {
    const piece = must(this.#chunk).subarray(from, to)
    this.#pending ??= new PendingLine(this.#chunkStart + from, this.#maxLineBytes)
    this.#pending.add(piece)
  }

  #finishPending(terminated: boolean): JsonlLine {
    const pending = this.#pending
    this.#pending = null
    if (!pending) throw new Error('no pending line')
    this.#fingerprint.consume(pending.first, pending.last, pending.length)
    this.#position = pending.start + pending.length
    return { start: pending.start, end: this.#position, text: pending.text(terminated), terminated }
  }

  /** Reads the next chunk; false at the end of the file. */
  #fill(): boolean {
    const at = this.#chunkStart + this.#filled
    this.#chunk ??= Buffer.allocUnsafe(
      Math.min(this.#chunkBytes, Math.max(minChunkBytes, fstatSync(this.#fd).size - at + 1)),
    )
    const n = readSync(this.#fd, this.#chunk, 0, this.#chunk.length, at)
    if (n === 0) return false
    this.#chunkStart = at
    this.#filled = n
    this.#cursor = 0
    return true
  }
}

/** A line that spans chunks, kept as copied pieces until it ends (or only its edges, past the cap). */
class PendingLine {
  readonly start: number
  length = 0
  first: Buffer = Buffer.alloc(0)
  last: Buffer = Buffer.alloc(0)
  #pieces: Buffer[] | null = []
  readonly #cap: number

  constructor(start: number, cap: number) {
    this.start = start
    this.#cap = cap
  }

  add(piece: Buffer): void {
    this.length += piece.length
    if (this.first.length < fingerprintWindow) {
      this.first = Buffer.concat([this.first, piece.subarray(0, fingerprintWindow - this.first.length)])
    }
    const edge = Buffer.concat([this.last, piece.subarray(Math.max(0, piece.length - fingerprintWindow))])
    this.last = edge.subarray(Math.max(0, edge.length - fingerprintWindow))
    // Past cap + 1 bytes even a final newline cannot bring the content back under the cap.
    if (this.#pieces && this.length > this.#cap + 1) this.#pieces = null
    else this.#pieces?.push(Buffer.from(piece))
  }

  text(terminated: boolean): string | null {
    const content = terminated ? this.length - 1 : this.length
    if (!this.#pieces || content > this.#cap) return null
    const bytes = Buffer.concat(this.#pieces, this.length)
    return decodeLine(bytes, 0, terminated ? bytes.length - 1 : bytes.length)
  }
}

/** Decodes bytes [from, to) without a trailing `\r` (CRLF files). */
function decodeLine(bytes: Buffer, from: number, to: number): string {
  const end = to > from && bytes[to - 1] === carriageReturn ? to - 1 : to
  return bytes.toString('utf8', from, end)
}
