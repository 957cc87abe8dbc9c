import { closeSync, constants, openSync, read } from 'node:fs'

/**
 * Reads a hook's stdin to the end, as bytes (the pre-push gate hands the very same bytes to the
 * hook it chains).
 *
 * Not through `process.stdin`: the stream machinery behind it (net, streams: some twenty internal
 * modules) costs more start-up time than the rest of a denial. A pipe (Codex, git) is reopened
 * non-blocking through `/proc/self/fd/0` and polled, so a host that never closes it keeps nothing
 * busy. A socket (Claude Code's stdin is one) cannot be reopened that way and is read as it is, on
 * libuv's thread pool: the event loop stays free and the time budget still fires, but Node cannot
 * exit while that read blocks, so `blocking` tells the watchdog to end the process by signal.
 * Past `maxBytes` (a Write of a huge file carries its whole content) `bytes` resolves with what was
 * kept, `total` says the cap was passed, and the hook answers that it did not read the payload.
 */
export interface StdinRead {
  readonly bytes: Promise<Buffer>
  /** The bytes read so far, kept or dropped; past `maxBytes`, `bytes` resolves before the end. */
  readonly total: () => number
  /** Settles once stdin was read to its end (or failed), also when `bytes` resolved early. */
  readonly finished: Promise<void>
  /** True while a read that cannot be abandoned is in flight. */
  readonly blocking: () => boolean
}

export function readStdin(maxBytes = 64 * 1024 * 1024): StdinRead {
  const reopened = openNonBlocking()
  const fd = reopened ?? 0
  let pending = true
  const chunks: Buffer[] = []
  const buffer = Buffer.allocUnsafe(256 * 1024)
  let size = 0
  let flowing = false
  let finish = (): void => {}
  const finished = new Promise<void>((resolve) => {
    finish = resolve
  })
  const bytes = new Promise<Buffer>((resolve, reject) => {
    const done = (): void => {
      pending = false
      if (reopened !== null) closeSync(reopened)
      finish()
    }
    const next = (): void =>
      read(fd, buffer, 0, buffer.length, null, (error, count) => {
        if (error?.code === 'EAGAIN') {
          // Right after data, the writer is likely mid-payload: look again at once. A pipe that
          // stayed empty is polled every 2 ms, so a host that never closes it costs no CPU.
          if (flowing) setImmediate(next)
          else setTimeout(next, 2)
          flowing = false
          return
        }
        if (error || count === 0) {
          done()
          if (error) reject(error)
          else resolve(Buffer.concat(chunks))
          return
        }
        flowing = true
        if (size + count <= maxBytes) chunks.push(Buffer.from(buffer.subarray(0, count)))
        // Past the cap the answer need not wait for the rest: what was read is handed over, and
        // the rest is still read (and dropped), so the host's write does not fail on a closed pipe.
        else if (size <= maxBytes) resolve(Buffer.concat(chunks))
        size += count
        next()
      })
    next()
  })
  return { bytes, total: () => size, finished, blocking: () => pending && reopened === null }
}

function openNonBlocking(): number | null {
  try {
    return openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {
    return null
  }
}
