import { statSync } from 'node:fs'
import type { TranscriptLocation } from '../../agents/transcript-locations.ts'
import type { Logger } from '../../shared/logger.ts'
import { translateSqliteError } from '../../store/database.ts'
import { listSourceFiles } from '../store/source-file-table.ts'
import { isInWindow } from './capture-scope.ts'
import { backfillWithWorker } from './parallel.ts'
import {
  type FileSyncDeps,
  type FileSyncOptions,
  type FileSyncResult,
  prepareFile,
  syncTranscriptFile,
} from './transcript-file.ts'

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

export interface CatchUpDeps extends FileSyncDeps {
  readonly log: Logger
  /** Commit the open group once it holds this many transcript bytes or is this old. */
  readonly groupBytes: number
  readonly groupMs: number
  /** A backfill with at least this many bytes to read reads them in a worker thread. */
  readonly workerMinBytes: number
}

/**
 * Brings every given file up to date. The commits are grouped into transactions of about
 * `groupBytes` or `groupMs` (see `CaptureStore.beginBulk`): FTS5 writes a segment per commit, so
 * a thousand small transactions cost several times one large one, while a bounded group keeps
 * another writer's wait and a crash's loss short. Between batches the event loop gets a turn, so
 * a daemon can stop (`signal`): the group in hand is committed and the catch-up ends early.
 */
export async function catchUp(
  deps: CatchUpDeps,
  locations: readonly TranscriptLocation[],
  options: CatchUpOptions,
): Promise<CatchUpSummary> {
  const work = plan(deps, locations)
  const progress = { filesDone: 0, filesTotal: work.length, bytesDone: 0, bytesTotal: 0, events: 0 }
  for (const item of work) progress.bytesTotal += item.bytes
  const report = (): void => options.onProgress?.({ ...progress } satisfies CaptureProgress)
  const counts = {
    captured: 0,
    outOfScope: 0,
    outOfWindow: 0,
    undecided: 0,
    inserted: 0,
    resets: 0,
    moved: 0,
  }
  const sql = <T>(work: () => T): T => {
    try {
      return work()
    } catch (error) {
      throw translateSqliteError(error, deps.db.name)
    }
  }
  let groupBytes = 0
  let groupStartedAt = deps.clock.now()
  const onCommit = (bytes: number, inserted: number): void => {
    progress.bytesDone += bytes
    progress.events += inserted
    groupBytes += bytes
    report()
    if (groupBytes < deps.groupBytes && deps.clock.now() - groupStartedAt < deps.groupMs) return
    deps.store.commitBulk()
    groupBytes = 0
    groupStartedAt = deps.clock.now()
    sql(() => deps.store.beginBulk())
  }
  // In the daemon (live mode) this process has other connections, and each waits for the write
  // lock synchronously: a group held open across a turn of the event loop blocks the very thread
  // that would commit it, so they fail after their busy timeout ("database is locked" at every
  // start of a daemon with transcripts to catch up). There the group is committed before every
  // wait and opened again after it; a one-shot backfill keeps its larger groups.
  const pause = async (wait: Promise<void>): Promise<void> => {
    if (options.mode !== 'live') return wait
    deps.store.commitBulk()
    try {
      await wait
    } finally {
      sql(() => deps.store.beginBulk())
      groupBytes = 0
      groupStartedAt = deps.clock.now()
    }
  }
  const onFile = (location: TranscriptLocation, result: FileSyncResult): void => {
    tally(counts, result)
    if (result.reset)
      deps.log.info('transcript rewritten; read again from the start', { path: location.path })
    if (result.movedFrom) deps.log.info('transcript moved', { from: result.movedFrom, to: location.path })
    options.onFile?.(location, result)
    progress.filesDone++
    report()
  }

  report()
  sql(() => deps.store.beginBulk())
  try {
    if (progress.bytesTotal >= deps.workerMinBytes) {
      await backfillWithWorker(
        work.map((item) => item.location),
        {
          author: deps.author,
          quietMs: deps.quietMs,
          batchLines: deps.batchLines,
          batchBytes: deps.batchBytes,
        },
        {
          prepareFile: (location) => prepareFile(deps, location),
          commit: (batch) => deps.store.commit(batch),
          onCommit,
          onFile,
          pause,
          syncAlone: (location) => syncTranscriptFile(deps, location, { mode: options.mode, onCommit }),
        },
        { mode: options.mode, now: deps.now, signal: options.signal },
      )
    } else {
      for (const { location } of work) {
        if (options.signal?.aborted) break
        onFile(location, await syncInTurns(deps, location, options, onCommit, pause))
      }
    }
    deps.store.commitBulk()
  } catch (error) {
    deps.store.rollbackBulk()
    throw translateSqliteError(error, deps.db.name)
  }
  return { files: locations.length, ...counts }
}

/** One file, one batch per turn of the event loop. */
async function syncInTurns(
  deps: CatchUpDeps,
  location: TranscriptLocation,
  options: CatchUpOptions,
  onCommit: (bytes: number, inserted: number) => void,
  pause: (wait: Promise<void>) => Promise<void>,
): Promise<FileSyncResult> {
  const read = () => syncTranscriptFile(deps, location, { mode: options.mode, maxCommits: 1, onCommit })
  const first = read()
  let result = first
  let inserted = first.inserted
  let reset = first.reset
  while (result.status === 'more' && !options.signal?.aborted) {
    await pause(new Promise((resolve) => setImmediate(resolve)))
    result = read()
    inserted += result.inserted
    reset ||= result.reset
  }
  return { ...result, inserted, reset, movedFrom: first.movedFrom }
}

/** The bytes each file has left to read (none for files out of scope or out of the window). */
function plan(deps: CatchUpDeps, locations: readonly TranscriptLocation[]) {
  const known = new Map(listSourceFiles(deps.db).map((row) => [row.path, row]))
  return locations.map((location) => {
    const row = known.get(location.path)
    const stat = statOrNull(location.path)
    if (!stat || row?.inScope === false || (!row && !isInWindow(deps.scope, location.path, stat.mtimeMs))) {
      return { location, bytes: 0 }
    }
    const offset = row && row.offset <= stat.size ? row.offset : 0
    return { location, bytes: stat.size - offset }
  })
}

type Counts = { -readonly [K in Exclude<keyof CatchUpSummary, 'files'>]: number }

function tally(counts: Counts, result: FileSyncResult): void {
  if (result.status === 'out-of-scope') counts.outOfScope++
  else if (result.status === 'out-of-window') counts.outOfWindow++
  else if (result.status === 'undecided') counts.undecided++
  else if (result.status === 'caught-up' || result.status === 'more') counts.captured++
  counts.inserted += result.inserted
  if (result.reset) counts.resets++
  if (result.movedFrom) counts.moved++
}

function statOrNull(path: string): { size: number; mtimeMs: number } | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}
