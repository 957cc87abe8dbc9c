import type { TranscriptLocation } from '../../agents/transcript-locations.ts'
import type { TranscriptReader, TranscriptVendor } from '../../agents/transcript-reader.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import { type Db, translateSqliteError } from '../../store/database.ts'
import { CaptureStore } from '../store/capture-store.ts'
import type { CaptureScope } from './capture-scope.ts'
import { type CatchUpDeps, type CatchUpOptions, type CatchUpSummary, catchUp } from './catch-up.ts'
import { type FileSyncOptions, type FileSyncResult, syncTranscriptFile } from './transcript-file.ts'

export type { CaptureProgress, CatchUpOptions, CatchUpSummary } from './catch-up.ts'

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
  /**
   * A backfill with at least this many bytes to read reads them in a worker thread, which runs
   * the vendor readers of `capture-readers.ts` (not an injected `readerFor`); default: never.
   */
  readonly workerMinBytes?: number | undefined
}

/** A final line without a newline is taken once the file has been quiet this long (live mode). */
export const defaultQuietMs = 1000

/**
 * Capture: transcript files in, events out. One instance per database connection; `index`,
 * `doctor` and the daemon all go through it, so they account for lines the same way.
 */
export class Capture {
  readonly #deps: CatchUpDeps

  constructor(options: CaptureOptions) {
    this.#deps = {
      db: options.db,
      store: new CaptureStore(options.db),
      clock: options.clock,
      now: () => options.clock.now(),
      log: options.log.child({ component: 'capture' }),
      scope: options.scope,
      author: options.author,
      readerFor: options.readerFor,
      quietMs: options.quietMs ?? defaultQuietMs,
      batchLines: options.batchLines ?? 5000,
      batchBytes: options.batchBytes ?? 16 * 1024 * 1024,
      groupBytes: options.groupBytes ?? 32 * 1024 * 1024,
      groupMs: options.groupMs ?? 1000,
      workerMinBytes: options.workerMinBytes ?? Number.POSITIVE_INFINITY,
    }
  }

  /** Brings one file up to date (or as far as `maxCommits` allows). SQLite lock timeouts become STORE_BUSY. */
  syncFile(location: TranscriptLocation, options: FileSyncOptions): FileSyncResult {
    try {
      const result = syncTranscriptFile(this.#deps, location, options)
      if (result.reset)
        this.#deps.log.info('transcript rewritten; read again from the start', { path: location.path })
      if (result.movedFrom)
        this.#deps.log.info('transcript moved', { from: result.movedFrom, to: location.path })
      return result
    } catch (error) {
      throw translateSqliteError(error, this.#deps.db.name)
    }
  }

  /** Brings every given file up to date, reporting progress as it goes (see `capture-catch-up.ts`). */
  catchUp(locations: readonly TranscriptLocation[], options: CatchUpOptions): Promise<CatchUpSummary> {
    return catchUp(this.#deps, locations, options)
  }
}
