import { closeSync, openSync, type Stats, statSync } from 'node:fs'
import type { TranscriptLocation } from '../../agents/transcript-locations.ts'
import { must } from '../../shared/assert.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/database.ts'
import type { CaptureStore } from '../store/capture-store.ts'
import {
  ensureSourceFile,
  getSourceFile,
  getSourceFileById,
  type SourceFileRow,
} from '../store/source-file-table.ts'
import { type CaptureScope, isInWindow } from './capture-scope.ts'
import { adoptMovedFile, decideScope } from './file-identity.ts'
import { type ReadContext, type ReadMode, readBatches } from './read-batches.ts'

export interface FileSyncDeps extends ReadContext {
  readonly db: Db
  readonly store: CaptureStore
  readonly clock: Clock
  readonly scope: CaptureScope
}

export interface FileSyncOptions {
  /** live: a torn final line waits for quiet; backfill: the final line is always taken. */
  readonly mode: ReadMode
  /** Stop after this many commits and report `more` (the daemon interleaves files this way). */
  readonly maxCommits?: number | undefined
  /** Called after every commit with the bytes it consumed and the events it inserted. */
  readonly onCommit?: ((bytes: number, inserted: number) => void) | undefined
}

export type FileSyncStatus =
  | 'missing'
  | 'out-of-window'
  | 'out-of-scope'
  /** No record has given a cwd yet, so nothing was stored; scanned again when the file changes. */
  | 'undecided'
  | 'caught-up'
  /** Stopped at `maxCommits`, or lost a race with another writer; call again. */
  | 'more'

export interface FileSyncResult {
  readonly status: FileSyncStatus
  readonly inserted: number
  readonly reset: boolean
  /** The old path when this file was recognised as a known transcript that moved. */
  readonly movedFrom: string | null
  /** Bytes past the offset that do not form a line yet (a line being written). */
  readonly pendingBytes: number
  /** In live mode, when a pending final line may be taken if the file stays quiet; else null. */
  readonly retryAt: number | null
}

const idle = { inserted: 0, reset: false, movedFrom: null, pendingBytes: 0, retryAt: null }
/** How many times a file is re-read after losing the commit race to another process. */
const maxConflicts = 5

/** A file ready to be read on: its row (in scope) and an open descriptor the caller closes. */
export interface PreparedFile {
  readonly row: SourceFileRow
  readonly fd: number
  readonly movedFrom: string | null
}

/**
 * Everything before reading a file on: finds or creates its row (recognising a moved file),
 * applies the window to new files, and decides scope once. Returns the open file when it is to be
 * read, else the outcome that stops here.
 */
export function prepareFile(deps: FileSyncDeps, location: TranscriptLocation): PreparedFile | FileSyncResult {
  const stat = statOrNull(location.path)
  if (!stat) return { status: 'missing', ...idle }
  let row = getSourceFile(deps.db, location.path)
  let movedFrom: string | null = null
  if (!row) {
    const moved = adoptMovedFile(deps, location)
    if (moved) movedFrom = moved.path
    else if (!isInWindow(deps.scope, location.path, stat.mtimeMs)) return { status: 'out-of-window', ...idle }
    row = ensureSourceFile(deps.db, location.path, location.vendor, deps.clock.now())
  }
  if (row.inScope === false) return { status: 'out-of-scope', ...idle, movedFrom }
  const fd = openOrNull(location.path)
  if (fd === null) return { status: 'missing', ...idle }
  if (row.inScope === null) {
    const decided = decideScope(deps, row, fd, stat)
    if (decided !== 'in-scope') {
      closeSync(fd)
      return { status: decided, ...idle, movedFrom }
    }
    row = must(getSourceFileById(deps.db, row.id), `source_file ${row.id} vanished`)
  }
  return { row, fd, movedFrom }
}

export function isPrepared(value: PreparedFile | FileSyncResult): value is PreparedFile {
  return 'fd' in value
}

/**
 * Brings one transcript file up to date: prepares it, then reads on from the stored offset and
 * commits batch by batch. Each commit stores events, offset, fingerprint, reader state and counters
 * together, so a crash at any moment resumes exactly where the last commit left off.
 */
export function syncTranscriptFile(
  deps: FileSyncDeps,
  location: TranscriptLocation,
  options: FileSyncOptions,
): FileSyncResult {
  const prepared = prepareFile(deps, location)
  if (!isPrepared(prepared)) return prepared
  let row = prepared.row
  try {
    for (let attempt = 0; attempt < maxConflicts; attempt++) {
      const result = commitBatches(deps, row, prepared.fd, options)
      if (result) return { ...result, movedFrom: prepared.movedFrom }
      row = must(getSourceFileById(deps.db, row.id), `source_file ${row.id} vanished`)
    }
    return { status: 'more', ...idle, movedFrom: prepared.movedFrom }
  } finally {
    closeSync(prepared.fd)
  }
}

/** Commits the batches of one pass over the file; null when another process committed first. */
function commitBatches(
  deps: FileSyncDeps,
  row: SourceFileRow,
  fd: number,
  options: FileSyncOptions,
): Omit<FileSyncResult, 'movedFrom'> | null {
  const batches = readBatches(deps, row, fd, options.mode)
  let inserted = 0
  let commits = 0
  let reset = false
  for (let step = batches.next(); ; step = batches.next()) {
    if (step.done) return { status: 'caught-up', inserted, ...step.value }
    const { batch, bytes, last } = step.value
    const outcome = deps.store.commit(batch)
    if (!outcome.committed) return null
    reset ||= batch.reset
    inserted += outcome.inserted
    commits++
    options.onCommit?.(bytes, outcome.inserted)
    if (!last && options.maxCommits !== undefined && commits >= options.maxCommits) {
      return { status: 'more', inserted, reset, pendingBytes: 0, retryAt: null }
    }
  }
}

function statOrNull(path: string): Stats | null {
  try {
    const stat = statSync(path)
    return stat.isFile() ? stat : null
  } catch {
    return null
  }
}

function openOrNull(path: string): number | null {
  try {
    return openSync(path, 'r')
  } catch {
    return null
  }
}
