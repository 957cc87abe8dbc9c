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

  constructor(options: CaptureOptions) {
    this.#log = options.log.child({ component: 'capture' })
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

  /** Brings every given file up to date, in order, reporting progress as it goes. */
  catchUp(
    locations: readonly TranscriptLocation[],
    options: {
      mode: FileSyncOptions['mode']
      onProgress?: ((progress: CaptureProgress) => void) | undefined
    },
  ): CatchUpSummary {
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
    options.onProgress?.({ ...progress })
    for (const item of work) {
      const result = this.syncFile(item.location, {
        mode: options.mode,
        onCommit: (bytes, inserted) => {
          progress.bytesDone += bytes
          progress.events += inserted
          options.onProgress?.({ ...progress })
        },
      })
      tally(counts, result)
      progress.filesDone++
      options.onProgress?.({ ...progress })
    }
    return { files: locations.length, ...counts }
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
