import { createHash } from 'node:crypto'
import { readSync } from 'node:fs'

/** How many bytes at the start of the file, and just before the offset, the fingerprint covers. */
export const fingerprintWindow = 4096

/**
 * A fingerprint of the bytes a reader has consumed: a hash of the first 4 KiB of the file and of
 * the 4 KiB just before the offset. It is stored with the offset, and checked before every read
 * of the file: if those bytes changed, the file was rewritten (or replaced) under us and must be
 * read again from the start. It is computed from the bytes actually read, never re-read at commit
 * time, so a rewrite racing a read cannot slip a matching fingerprint under stale events.
 */
export class ByteFingerprint {
  #head: Buffer
  /** The last ≤ 4 KiB consumed, at the end of a 8 KiB buffer that is shifted only when full. */
  readonly #tail = Buffer.alloc(2 * fingerprintWindow)
  #tailLength = 0

  private constructor(head: Buffer, tail: Buffer) {
    this.#head = head
    this.#pushTail(tail)
  }

  /** The fingerprint of an empty prefix (offset 0). */
  static empty(): ByteFingerprint {
    return new ByteFingerprint(Buffer.alloc(0), Buffer.alloc(0))
  }

  /**
   * Reads the fingerprinted bytes of the first `offset` bytes of an open file; null when the file
   * is now shorter than `offset` (it was truncated).
   */
  static load(fd: number, offset: number): ByteFingerprint | null {
    const head = readExactly(fd, 0, Math.min(offset, fingerprintWindow))
    const tailStart = Math.max(0, offset - fingerprintWindow)
    const tail = readExactly(fd, tailStart, offset - tailStart)
    return head && tail ? new ByteFingerprint(head, tail) : null
  }

  /**
   * Extends the fingerprint with one consumed line of `length` bytes, of which `first` holds the
   * first ≤ 4 KiB and `last` the last ≤ 4 KiB (the same bytes for a short line).
   */
  consume(first: Buffer, last: Buffer, length: number): void {
    if (this.#head.length < fingerprintWindow) {
      const room = fingerprintWindow - this.#head.length
      this.#head = Buffer.concat([this.#head, first.subarray(0, room)])
    }
    this.#pushTail(length >= fingerprintWindow ? last.subarray(last.length - fingerprintWindow) : last)
  }

  /** The stored form: 32 hex chars; '' for an empty prefix. */
  digest(): string {
    if (this.#head.length === 0) return ''
    const tail = this.#tail.subarray(Math.max(0, this.#tailLength - fingerprintWindow), this.#tailLength)
    return createHash('sha256').update(this.#head).update('\0').update(tail).digest('hex').slice(0, 32)
  }

  #pushTail(bytes: Buffer): void {
    if (bytes.length >= fingerprintWindow) {
      bytes.copy(this.#tail, 0, bytes.length - fingerprintWindow)
      this.#tailLength = fingerprintWindow
      return
    }
    if (this.#tailLength + bytes.length > this.#tail.length) {
      const keep = Math.min(this.#tailLength, fingerprintWindow)
      this.#tail.copyWithin(0, this.#tailLength - keep, this.#tailLength)
      this.#tailLength = keep
    }
    bytes.copy(this.#tail, this.#tailLength)
    this.#tailLength += bytes.length
  }
}

function readExactly(fd: number, position: number, length: number): Buffer | null {
  const buffer = Buffer.alloc(length)
  let filled = 0
  while (filled < length) {
    const n = readSync(fd, buffer, filled, length - filled, position + filled)
    if (n === 0) return null
    filled += n
  }
  return buffer
}
