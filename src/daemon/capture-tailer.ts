import { statSync } from 'node:fs'
import {
  classifyTranscriptPath,
  discoverTranscripts,
  type TranscriptLocation,
  type TranscriptRoot,
} from '../agents/transcript-locations.ts'
import type { Capture, CatchUpSummary } from '../memory/services/capture.ts'
import type { FileSyncResult } from '../memory/services/transcript-file.ts'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'
import { ErrorCode, isSangamError } from '../shared/sangam-error.ts'
import type { Service } from './service.ts'
import { TranscriptWatcher } from './transcript-watcher.ts'

/** What the daemon reports as it goes (`sangam up --json` prints one per line). */
export type TailerStatus =
  | { readonly type: 'ready'; readonly files: number; readonly inserted: number; readonly durationMs: number }
  | { readonly type: 'watching'; readonly root: string }
  | { readonly type: 'captured'; readonly path: string; readonly inserted: number }
  | { readonly type: 'reset'; readonly path: string }
  | { readonly type: 'moved'; readonly from: string; readonly to: string }
  /** A file could not be read (path), or the catch-up could not go on (null); both are retried. */
  | { readonly type: 'error'; readonly path: string | null; readonly message: string }

export interface TailerOptions {
  readonly capture: Capture
  readonly roots: readonly TranscriptRoot[]
  readonly clock: Clock
  readonly log: Logger
  readonly onStatus: (status: TailerStatus) => void
  /** How often every known file is stat'ed and the roots rescanned. */
  readonly sweepMs?: number | undefined
}

/** How long the catch-up waits before trying again after STORE_BUSY. */
const busyRetryMs = 1000

interface Seen {
  readonly size: number
  readonly mtimeMs: number
}

/**
 * The daemon's capture service: catches up with every transcript in the window, then tails them.
 * `fs.watch` tells it quickly which file changed; a periodic sweep (stat every file, rescan the
 * roots, watch roots that appeared) catches what the watcher missed. Files are synced one at a
 * time by a single loop, one batch per turn of the event loop, so stopping never cuts a
 * transaction and a burst on one file cannot starve the others.
 */
export class CaptureTailer implements Service {
  readonly id = 'capture-tailer'
  readonly #options: TailerOptions
  readonly #log: Logger
  readonly #watcher: TranscriptWatcher
  readonly #seen = new Map<string, Seen>()
  readonly #dirty = new Set<string>()
  readonly #retries = new Map<string, NodeJS.Timeout>()
  /** Nudged when a file is marked dirty; its rounds sync the dirty files. */
  readonly #loop = new PeriodicLoop()
  #sweepTimer: NodeJS.Timeout | null = null
  #sweepSoon: NodeJS.Timeout | null = null

  constructor(options: TailerOptions) {
    this.#options = options
    this.#log = options.log.child({ component: this.id })
    this.#watcher = new TranscriptWatcher(
      options.roots,
      {
        onTranscript: (path) => this.#schedule(path),
        onOther: () => this.#sweepShortly(),
      },
      options.log,
    )
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }

  async #run(): Promise<void> {
    try {
      for (const root of this.#watcher.ensureWatching())
        this.#options.onStatus({ type: 'watching', root: root.path })
      const summary = await this.#catchUp()
      if (this.#loop.signal.aborted) return
      this.#options.onStatus({ type: 'ready', ...summary })
      const sweepMs = this.#options.sweepMs ?? 2000
      this.#sweepTimer = setInterval(() => this.#sweep(), sweepMs)
      // A dirty file nudges the loop, so its nap (as long as a sweep, which marks what it finds
      // dirty) only bounds a round that finds nothing.
      await this.#loop.every(sweepMs, () => this.#drain())
    } finally {
      this.#watcher.close()
      if (this.#sweepTimer) clearInterval(this.#sweepTimer)
      if (this.#sweepSoon) clearTimeout(this.#sweepSoon)
      for (const timer of this.#retries.values()) clearTimeout(timer)
    }
  }

  /**
   * Sizes are taken before the catch-up reads, so a file that grows while the catch-up runs
   * differs from what was seen and the first sweep reads it again.
   */
  async #catchUp(): Promise<{ files: number; inserted: number; durationMs: number }> {
    const startedAt = this.#options.clock.now()
    const locations = discoverTranscripts(this.#options.roots)
    for (const location of locations) this.#remember(location.path)
    for (;;) {
      try {
        const summary: CatchUpSummary = await this.#options.capture.catchUp(locations, {
          mode: 'live',
          signal: this.#loop.signal,
          onFile: (location, result) => this.#after(location, result),
        })
        return {
          files: summary.captured,
          inserted: summary.inserted,
          durationMs: this.#options.clock.now() - startedAt,
        }
      } catch (error) {
        // Another writer held the database past the busy timeout: what was committed stays, and
        // the catch-up starts over from there rather than taking the daemon down.
        if (!isSangamError(error) || error.code !== ErrorCode.StoreBusy || this.#loop.signal.aborted)
          throw error
        this.#log.warn('database busy during catch-up; trying again', { error: error.message })
        this.#options.onStatus({ type: 'error', path: null, message: error.message })
        await new Promise((resolve) => setTimeout(resolve, busyRetryMs))
      }
    }
  }

  /** Syncs the dirty files one at a time until none is left or the tailer stops. */
  async #drain(): Promise<void> {
    for (;;) {
      const path = this.#dirty.values().next().value
      if (path === undefined || this.#loop.signal.aborted) return
      this.#dirty.delete(path)
      await this.#sync(path)
    }
  }

  async #sync(path: string): Promise<void> {
    const vendor = classifyTranscriptPath(this.#options.roots, path)
    if (vendor === null) return
    const location = { path, vendor }
    this.#remember(path)
    let inserted = 0
    try {
      for (;;) {
        const result = this.#options.capture.syncFile(location, { mode: 'live', maxCommits: 1 })
        inserted += result.inserted
        if (result.status !== 'more' || this.#loop.signal.aborted) {
          this.#after(location, { ...result, inserted })
          return
        }
        await new Promise((resolve) => setImmediate(resolve))
      }
    } catch (error) {
      // The file is read again at the next sweep; the daemon keeps tailing the others.
      this.#seen.delete(path)
      this.#log.warn('could not capture a transcript', { path, error: (error as Error).message })
      this.#options.onStatus({ type: 'error', path, message: (error as Error).message })
    }
  }

  #after(location: TranscriptLocation, result: FileSyncResult): void {
    if (result.inserted > 0)
      this.#options.onStatus({ type: 'captured', path: location.path, inserted: result.inserted })
    if (result.reset) this.#options.onStatus({ type: 'reset', path: location.path })
    if (result.movedFrom) this.#options.onStatus({ type: 'moved', from: result.movedFrom, to: location.path })
    if (result.retryAt !== null) this.#retryAt(location.path, result.retryAt)
  }

  /** A final line without a newline is looked at again once the file may have gone quiet. */
  #retryAt(path: string, at: number): void {
    clearTimeout(this.#retries.get(path))
    const delay = Math.max(10, at - this.#options.clock.now() + 10)
    this.#retries.set(
      path,
      setTimeout(() => {
        this.#retries.delete(path)
        this.#schedule(path)
      }, delay),
    )
  }

  #schedule(path: string): void {
    if (this.#loop.signal.aborted) return
    this.#dirty.add(path)
    this.#loop.nudge()
  }

  #sweepShortly(): void {
    if (this.#sweepSoon || this.#loop.signal.aborted) return
    this.#sweepSoon = setTimeout(() => {
      this.#sweepSoon = null
      this.#sweep()
    }, 100)
  }

  /** Rescans the roots and stats every file: anything new or changed since it was read is synced. */
  #sweep(): void {
    if (this.#loop.signal.aborted) return
    for (const root of this.#watcher.ensureWatching()) {
      this.#options.onStatus({ type: 'watching', root: root.path })
    }
    for (const { path } of discoverTranscripts(this.#options.roots)) {
      const now = statOrNull(path)
      const seen = this.#seen.get(path)
      if (now && (!seen || seen.size !== now.size || seen.mtimeMs !== now.mtimeMs)) this.#schedule(path)
    }
  }

  #remember(path: string): void {
    const stat = statOrNull(path)
    if (stat) this.#seen.set(path, stat)
    else this.#seen.delete(path)
  }
}

function statOrNull(path: string): Seen | null {
  try {
    const stat = statSync(path)
    return { size: stat.size, mtimeMs: stat.mtimeMs }
  } catch {
    return null
  }
}
