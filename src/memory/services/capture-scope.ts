import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs'
import { isInsideProject } from '../../identity/core/project-scope.ts'
import type { Clock } from '../../shared/clock.ts'

/**
 * Which transcripts capture reads. The window is one notion, shared with search: an event is in it
 * by its own time (D94). Capture reads a transcript that holds an event in the window, and reads it
 * whole (a session is never cut in half, so its older part is there as context for `thread`); a
 * transcript whose newest event is older is not read, even when something touched the file since.
 * Scope is decided once per file, from the first cwd its records give.
 */
export interface CaptureScope {
  /** Transcripts whose newest event is before this ms epoch are not read; null reads them all. */
  readonly since: number | null
  contains(cwd: string): boolean
}

/** Every file, whatever its project or age: `doctor --transcripts`. */
export const everyTranscript: CaptureScope = { since: null, contains: () => true }

/**
 * Whether a transcript not read before holds an event in the window. A file not modified since the
 * window opened cannot; one modified since may only have been touched, so its newest record's time
 * decides, read from the end of the file. When the end gives no time, the file is read.
 */
export function isInWindow(scope: CaptureScope, path: string, mtimeMs: number): boolean {
  if (scope.since === null) return true
  if (mtimeMs < scope.since) return false
  const newest = newestRecordTime(path)
  return newest === null || newest >= scope.since
}

const tailChunk = 16 * 1024
const maxTail = 256 * 1024
/**
 * The envelope time Claude Code and Codex write on each record, `"timestamp":"<ISO>"`; inside a
 * record's text the quotes are escaped, so a timestamp quoted in a tool output does not match.
 */
const recordTime = /"timestamp"\s*:\s*"([^"]{10,40})"/g

/** The latest record time in the last chunks of a file (ms epoch), or null when they hold none. */
export function newestRecordTime(path: string): number | null {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return null
  }
  try {
    const size = fstatSync(fd).size
    for (let length = Math.min(size, tailChunk); length > 0; length = Math.min(size, length * 4)) {
      const buffer = Buffer.alloc(length)
      const read = readSync(fd, buffer, 0, length, size - length)
      let newest: number | null = null
      for (const found of buffer.toString('utf8', 0, read).matchAll(recordTime)) {
        const at = Date.parse(found[1] ?? '')
        if (!Number.isNaN(at) && (newest === null || at > newest)) newest = at
      }
      if (newest !== null || length >= size || length >= maxTail) return newest
    }
    return null
  } finally {
    closeSync(fd)
  }
}

/** How often a cwd outside every known worktree may trigger a new listing of the worktrees. */
const refreshEveryMs = 5000

/**
 * The project's scope: a cwd inside any of its worktrees (compared as written, then with symlinks
 * resolved, since a CLI may record `/var/…` for `/private/var/…`). A worktree added while the
 * daemon runs is found because a miss re-lists the worktrees (at most every few seconds), so a
 * session started in it is not judged out of scope for good.
 */
export class ProjectScope implements CaptureScope {
  readonly since: number | null
  #worktrees: readonly string[]
  readonly #listWorktrees: () => readonly string[]
  readonly #clock: Clock
  #listedAt: number

  constructor(options: {
    worktrees: readonly string[]
    since: number | null
    listWorktrees: () => readonly string[]
    clock: Clock
  }) {
    this.since = options.since
    this.#worktrees = options.worktrees
    this.#listWorktrees = options.listWorktrees
    this.#clock = options.clock
    this.#listedAt = options.clock.now()
  }

  contains(cwd: string): boolean {
    if (this.#matches(cwd)) return true
    if (this.#clock.now() - this.#listedAt < refreshEveryMs) return false
    this.#worktrees = this.#listWorktrees()
    this.#listedAt = this.#clock.now()
    return this.#matches(cwd)
  }

  #matches(cwd: string): boolean {
    if (isInsideProject(cwd, this.#worktrees)) return true
    const real = realPathOrNull(cwd)
    return real !== null && real !== cwd && isInsideProject(real, this.#worktrees)
  }
}

function realPathOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null // a cwd that no longer exists, or one from another machine
  }
}
