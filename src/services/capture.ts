import { type Stats, statSync } from 'node:fs'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import { CaptureStore } from '../store/capture-store.ts'
import { type Db, translateSqliteError } from '../store/database.ts'
import { listSourceFiles } from '../store/source-file-table.ts'
import type { TranscriptLocation } from '../transcripts/transcript-locations.ts'
import type { TranscriptReader, TranscriptVendor } from '../transcripts/transcript-reader.ts'
import {
  type FileSyncDeps,
  type FileSyncOptions,
  type FileSyncResult,
  syncTranscriptFile,
} from './capture-file.ts'
import { type CaptureScope, isInWindow } from './capture-scope.ts'

export interface CaptureOptions {
  readonly db: Db
  readonly clock: Clock
  readonly log: Logger
  readonly scope: CaptureScope
  readonly author: string
  readonly readerFor: (vendor: TranscriptVendor) => TranscriptReader<unknown>
  readonly quietMs?: number | undefined
  readonly batchLines?: number | undefined
  readonly batchBytes?: number | undefined
  /**
   * A catch-up commits its work in transactions of about this many transcript bytes, or this
   * much time, whichever comes first: large enough for speed, short enough that another writer
   * waits little and a crash loses little.
   */
  readonly groupBytes?: number | undefined
  readonly groupMs?: number | undefined
}

export interface CatchUpOptions {
  readonly mode: FileSyncOptions['mode']
  readonly onProgress?: ((progress: CaptureProgress) => void) | undefined
  /** Called once per file with the outcome of its last read (the daemon schedules retries from it). */
  readonly onFile?: ((location: TranscriptLocation, result: FileSyncResult) => void) | undefined
  readonly signal?: AbortSignal | undefined
}

/** Where a catch-up is; reported after every commit and every file. */
export interface CaptureProgress {
  readonly filesDone: number
  readonly filesTotal: number
  readonly bytesDone: number
  readonly bytesTotal: number
  readonly events: number
}

export interface CatchUpSummary {
  /** Transcript files looked at (found under the roots, or given). */
  readonly files: number
  /** Of those, files that belong to the project and were read. */
  readonly captured: number
  readonly outOfScope: number
  readonly outOfWindow: number
  readonly undecided: number
  readonly inserted: number
  /** Files found rewritten or truncated, and read again from the start. */
  readonly resets: number
  /** Files recognised as known transcripts under a new path. */
  readonly moved: number
}

/** A final line without a newline is taken once the file has been quiet this long (live mode). */
export const defaultQuietMs = 1000

/**
 * Capture: transcript files in, events out. One instance per database connection; `index`,
 * `doctor` and the daemon all go through it, so they account for lines the same way.
 */
export class Capture {
  readonly #deps: FileSyncDeps
  readonly #log: Logger
  readonly #groupBytes: number
  readonly #groupMs: number

  constructor(options: CaptureOptions) {
    this.#log = options.log.child({ component: 'capture' })
    this.#groupBytes = options.groupBytes ?? 32 * 1024 * 1024
    this.#groupMs = options.groupMs ?? 1000
    this.#deps = {
      db: options.db,
      store: new CaptureStore(options.db),
      clock: options.clock,
      scope: options.scope,
      author: options.author,
      readerFor: options.readerFor,
      quietMs: options.quietMs ?? defaultQuietMs,
      batchLines: options.batchLines ?? 5000,
      batchBytes: options.batchBytes ?? 16 * 1024 * 1024,
    }
  }

  /** Brings one file up to date (or as far as `maxCommits` allows). SQLite lock timeouts become STORE_BUSY. */
  syncFile(location: TranscriptLocation, options: FileSyncOptions): FileSyncResult {
    try {
      const result = syncTranscriptFile(this.#deps, location, options)
      if (result.reset)
        this.#log.info('transcript rewritten; read again from the start', { path: location.path })
      if (result.movedFrom) this.#log.info('transcript moved', { from: result.movedFrom, to: location.path })
      return result
    } catch (error) {
      throw translateSqliteError(error, this.#deps.db.name)
    }
  }

  /**
   * Brings every given file up to date, in order, reporting progress as it goes. The work is
   * committed in groups (`groupBytes`, `groupMs`; see `CaptureStore.beginBulk`), and the event loop
   * gets a turn after every batch, so a daemon can stop between two batches: on `signal` the group
   * in hand is committed and the catch-up ends early.
   */
  async catchUp(locations: readonly TranscriptLocation[], options: CatchUpOptions): Promise<CatchUpSummary> {
    const work = this.#plan(locations)
    const progress = { filesDone: 0, filesTotal: work.length, bytesDone: 0, bytesTotal: 0, events: 0 }
    for (const item of work) progress.bytesTotal += item.bytes
    const counts = {
      captured: 0,
      outOfScope: 0,
      outOfWindow: 0,
      undecided: 0,
      inserted: 0,
      resets: 0,
      moved: 0,
    }
    const store = this.#deps.store
    let groupBytes = 0
    let groupStartedAt = this.#deps.clock.now()
    const onCommit = (bytes: number, inserted: number): void => {
      progress.bytesDone += bytes
      progress.events += inserted
      groupBytes += bytes
      options.onProgress?.({ ...progress })
    }
    // Commits the group in hand once it is big enough, and opens the next.
    const rollGroup = (): void => {
      const full = groupBytes >= this.#groupBytes || this.#deps.clock.now() - groupStartedAt >= this.#groupMs
      if (!full) return
      store.commitBulk()
      groupBytes = 0
      groupStartedAt = this.#deps.clock.now()
      this.#sqlite(() => store.beginBulk())
    }
    options.onProgress?.({ ...progress })
    this.#sqlite(() => store.beginBulk())
    try {
      for (const item of work) {
        if (options.signal?.aborted) break
        let result = this.syncFile(item.location, { mode: options.mode, maxCommits: 1, onCommit })
        const first = result
        let reset = result.reset
        let inserted = result.inserted
        while (result.status === 'more' && !options.signal?.aborted) {
          rollGroup()
          await turn()
          result = this.syncFile(item.location, { mode: options.mode, maxCommits: 1, onCommit })
          reset ||= result.reset
          inserted += result.inserted
        }
        tally(counts, { ...result, reset, inserted, movedFrom: first.movedFrom })
        options.onFile?.(item.location, result)
        progress.filesDone++
        options.onProgress?.({ ...progress })
        rollGroup()
      }
      store.commitBulk()
    } catch (error) {
      store.rollbackBulk()
      throw translateSqliteError(error, this.#deps.db.name)
    }
    return { files: locations.length, ...counts }
  }

  #sqlite<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw translateSqliteError(error, this.#deps.db.name)
    }
  }

  /** The bytes each file has left to read (none for files out of scope or out of the window). */
  #plan(locations: readonly TranscriptLocation[]): { location: TranscriptLocation; bytes: number }[] {
    const known = new Map(listSourceFiles(this.#deps.db).map((row) => [row.path, row]))
    return locations.map((location) => {
      const row = known.get(location.path)
      const stat = statOrNull(location.path)
      if (!stat || row?.inScope === false || (!row && !isInWindow(this.#deps.scope, stat.mtimeMs))) {
        return { location, bytes: 0 }
      }
      const offset = row && row.offset <= stat.size ? row.offset : 0
      return { location, bytes: stat.size - offset }
    })
  }
}

function tally(
  counts: {
    captured: number
    outOfScope: number
    outOfWindow: number
    undecided: number
    inserted: number
    resets: number
    moved: number
  },
  result: FileSyncResult,
): void {
  if (result.status === 'out-of-scope') counts.outOfScope++
  else if (result.status === 'out-of-window') counts.outOfWindow++
  else if (result.status === 'undecided') counts.undecided++
  else if (result.status === 'caught-up' || result.status === 'more') counts.captured++
  counts.inserted += result.inserted
  if (result.reset) counts.resets++
  if (result.movedFrom) counts.moved++
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

/** Lets the event loop run (signals, timers, watch events) between two batches. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
