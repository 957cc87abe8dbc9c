import { realpathSync } from 'node:fs'
import { isInsideProject } from '../../core/project-scope.ts'
import type { Clock } from '../../shared/clock.ts'

/**
 * Which transcripts capture reads. The window applies per file, by modification time: a file
 * touched since `since` is read whole (a session is never cut in half), an older one not at all.
 * Scope is decided once per file, from the first cwd its records give.
 */
export interface CaptureScope {
  /** Files last modified before this ms epoch are not read; null reads them all. */
  readonly since: number | null
  contains(cwd: string): boolean
}

/** Every file, whatever its project or age: `doctor --transcripts`. */
export const everyTranscript: CaptureScope = { since: null, contains: () => true }

export function isInWindow(scope: CaptureScope, mtimeMs: number): boolean {
  return scope.since === null || mtimeMs >= scope.since
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
