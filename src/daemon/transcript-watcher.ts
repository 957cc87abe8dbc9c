import { existsSync, type FSWatcher, watch } from 'node:fs'
import { join } from 'node:path'
import type { TranscriptRoot } from '../agents/transcript-locations.ts'
import { classifyTranscriptPath } from '../agents/transcript-locations.ts'
import type { Logger } from '../shared/logger.ts'

export interface WatcherEvents {
  /** A transcript file changed (or appeared). */
  onTranscript(path: string, root: TranscriptRoot): void
  /** Something else changed under a root (a new directory, an unnamed event): look again soon. */
  onOther(): void
}

/**
 * Recursive `fs.watch` on every transcript root that exists. Roots that appear later (a first
 * Claude Code or Codex run after `up` started) are picked up by `ensureWatching()`, which the sweep
 * calls. inotify can drop events (its queue overflows under a burst, see runtime.md §5); the sweep
 * makes up for that, so a lost event only delays a line, never loses it.
 */
export class TranscriptWatcher {
  readonly #roots: readonly TranscriptRoot[]
  readonly #events: WatcherEvents
  readonly #log: Logger
  readonly #watchers = new Map<string, FSWatcher>()
  #closed = false

  constructor(roots: readonly TranscriptRoot[], events: WatcherEvents, log: Logger) {
    this.#roots = roots
    this.#events = events
    this.#log = log.child({ component: 'transcript-watcher' })
  }

  /** Starts watching every root that exists and is not watched yet; returns the roots newly watched. */
  ensureWatching(): TranscriptRoot[] {
    if (this.#closed) return []
    const started: TranscriptRoot[] = []
    for (const root of this.#roots) {
      if (this.#watchers.has(root.path) || !existsSync(root.path)) continue
      const watcher = this.#watch(root)
      if (!watcher) continue
      this.#watchers.set(root.path, watcher)
      started.push(root)
    }
    return started
  }

  get watchedRoots(): string[] {
    return [...this.#watchers.keys()]
  }

  close(): void {
    this.#closed = true
    for (const watcher of this.#watchers.values()) watcher.close()
    this.#watchers.clear()
  }

  #watch(root: TranscriptRoot): FSWatcher | null {
    try {
      const watcher = watch(root.path, { recursive: true, persistent: true }, (_event, name) => {
        const path = name === null ? null : join(root.path, name.toString())
        if (path !== null && classifyTranscriptPath([root], path) !== null)
          this.#events.onTranscript(path, root)
        else this.#events.onOther()
      })
      watcher.on('error', (error) => {
        // The root was removed, or the kernel refused more watches: forget it; the sweep keeps
        // capture going and starts watching again once the root is back.
        this.#log.warn('stopped watching a transcript root', { root: root.path, error: error.message })
        watcher.close()
        if (this.#watchers.get(root.path) === watcher) this.#watchers.delete(root.path)
        this.#events.onOther()
      })
      return watcher
    } catch (error) {
      this.#log.warn('cannot watch a transcript root; relying on the sweep', {
        root: root.path,
        error: (error as Error).message,
      })
      return null
    }
  }
}
