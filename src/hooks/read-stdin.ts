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
 * Past `maxBytes` (a Write of a huge file carries its whole content) the rest is dropped; the
 * payload is then malformed, and that fails open.
 */
export interface StdinRead {
  readonly bytes: Promise<Buffer>
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
  const bytes = new Promise<Buffer>((resolve, reject) => {
    const next = (): void =>
      read(fd, buffer, 0, buffer.length, null, (error, count) => {
        if (error?.code === 'EAGAIN') {
          setTimeout(next, 2)
          return
        }
        if (error) {
          reject(error)
          return
        }
        if (count === 0) {
          resolve(Buffer.concat(chunks))
          return
        }
        if (size + count <= maxBytes) chunks.push(Buffer.from(buffer.subarray(0, count)))
        size += count
        next()
      })
    next()
  }).finally(() => {
    pending = false
    if (reopened !== null) closeSync(reopened)
  })
  return { bytes, blocking: () => pending && reopened === null }
}

function openNonBlocking(): number | null {
  try {
    return openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {
    return null
  }
}
