import { closeSync, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs'
import { must } from '../shared/assert.ts'
import type { Clock } from '../shared/clock.ts'
import type { CaptureStore } from '../store/capture-store.ts'
import type { Db } from '../store/database.ts'
import {
  ensureSourceFile,
  getSourceFile,
  getSourceFileById,
  type SourceFileRow,
} from '../store/source-file-table.ts'
import { ByteFingerprint } from '../transcripts/byte-fingerprint.ts'
import { JsonlFileReader, type JsonlLine } from '../transcripts/jsonl-file-reader.ts'
import type { TranscriptLocation } from '../transcripts/transcript-locations.ts'
import type { TranscriptReader, TranscriptVendor } from '../transcripts/transcript-reader.ts'
import { BatchBuilder, countersOf, zeroCounters } from './capture-batch.ts'
import { EventConverter } from './capture-event.ts'
import { adoptMovedFile, decideScope } from './capture-file-identity.ts'
import { type CaptureScope, isInWindow } from './capture-scope.ts'

export interface FileSyncDeps {
  readonly db: Db
  readonly store: CaptureStore
  readonly clock: Clock
  readonly scope: CaptureScope
  /** The project's human, the author of every captured event. */
  readonly author: string
  readonly readerFor: (vendor: TranscriptVendor) => TranscriptReader<unknown>
  /** Live mode takes a final line without `\n` only once the file has been quiet this long. */
  readonly quietMs: number
  /** A commit is made every so many lines or bytes. */
  readonly batchLines: number
  readonly batchBytes: number
}

export interface FileSyncOptions {
  /** live: a torn final line waits for quiet; backfill: the final line is always taken. */
  readonly mode: 'live' | 'backfill'
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

/**
 * Brings one transcript file up to date: decides (once) whether it belongs to the project, checks
 * that the bytes already read are unchanged, then reads on from the stored offset and commits in
 * batches. Each commit stores events, offset, fingerprint, reader state and counters together, so
 * a crash at any moment resumes exactly where the last commit left off.
 */
export function syncTranscriptFile(
  deps: FileSyncDeps,
  location: TranscriptLocation,
  options: FileSyncOptions,
): FileSyncResult {
  const stat = statOrNull(location.path)
  if (!stat) return { status: 'missing', ...idle }
  let row = getSourceFile(deps.db, location.path)
  let movedFrom: string | null = null
  if (!row) {
    const moved = adoptMovedFile(deps, location)
    if (moved) movedFrom = moved.path
    else if (!isInWindow(deps.scope, stat.mtimeMs)) return { status: 'out-of-window', ...idle }
    row = ensureRow(deps, location)
  }
  if (row.inScope === false) return { status: 'out-of-scope', ...idle, movedFrom }
  const fd = openOrNull(location.path)
  if (fd === null) return { status: 'missing', ...idle }
  try {
    if (row.inScope === null) {
      const decided = decideScope(deps, row, fd, stat)
      if (decided !== 'in-scope') return { status: decided, ...idle, movedFrom }
      row = must(getSourceFileById(deps.db, row.id), `source_file ${row.id} vanished`)
    }
    for (let attempt = 0; attempt < maxConflicts; attempt++) {
      const result = readOn(deps, row, fd, options)
      if (result) return { ...result, movedFrom }
      row = must(getSourceFileById(deps.db, row.id), `source_file ${row.id} vanished`)
    }
    return { status: 'more', ...idle, movedFrom }
  } finally {
    closeSync(fd)
  }
}

/** Where reading resumes: the stored offset if the bytes before it are unchanged, else byte 0. */
function resumePoint(
  row: SourceFileRow,
  fd: number,
): { offset: number; fingerprint: ByteFingerprint } | null {
  if (row.offset === 0) return { offset: 0, fingerprint: ByteFingerprint.empty() }
  const fingerprint = ByteFingerprint.load(fd, row.offset)
  if (!fingerprint || fingerprint.digest() !== row.fingerprint) return null
  // A final line taken without its newline must be followed by one; anything else means the
  // writer was still in the middle of that line, and what we took was a fragment.
  if (row.tailOpen && !isLineBreakAt(fd, row.offset)) return null
  return { offset: row.offset, fingerprint }
}

/** One pass over the file from its stored offset; null when another process committed first. */
function readOn(
  deps: FileSyncDeps,
  row: SourceFileRow,
  fd: number,
  options: FileSyncOptions,
): Omit<FileSyncResult, 'movedFrom'> | null {
  const resume = resumePoint(row, fd)
  const reset = resume === null
  const start = resume ?? { offset: 0, fingerprint: ByteFingerprint.empty() }
  const reader = deps.readerFor(row.vendor)
  const fresh = start.offset === 0
  const builder = new BatchBuilder(
    reader,
    new EventConverter({ path: row.path, vendor: row.vendor, sourceFileId: row.id, author: deps.author }),
    fresh ? reader.initialState() : reader.restore(row.readerState),
    fresh ? zeroCounters() : countersOf(row),
  )
  const lines = new JsonlFileReader(fd, start.offset, start.fingerprint)
  let from = { offset: row.offset, fingerprint: row.fingerprint }
  let pendingReset = reset
  let tailOpen = fresh ? false : row.tailOpen
  let inserted = 0
  let commits = 0
  let retryAt: number | null = null

  const commit = (): boolean => {
    const bytes = builder.pendingBytes
    const { events, unknownShapes } = builder.take()
    const facts = reader.facts(builder.state)
    const fingerprint = start.fingerprint.digest()
    const stat = fstatSync(fd)
    const outcome = deps.store.commit({
      sourceFileId: row.id,
      fromOffset: from.offset,
      fromFingerprint: from.fingerprint,
      reset: pendingReset,
      events,
      unknownShapes,
      progress: {
        id: row.id,
        sessionId: facts.sessionId,
        cliVersion: facts.cliVersion,
        firstCwd: row.firstCwd,
        inScope: true,
        offset: lines.position,
        fingerprint,
        tailOpen,
        size: Math.max(stat.size, lines.position),
        mtime: Math.floor(stat.mtimeMs),
        readerState: reader.serialise(builder.state),
        ...builder.counters,
        updatedAt: deps.clock.now(),
      },
    })
    if (!outcome.committed) return false
    from = { offset: lines.position, fingerprint }
    pendingReset = false
    inserted += outcome.inserted
    commits++
    options.onCommit?.(bytes, outcome.inserted)
    return true
  }

  const finalLine = (): JsonlLine | null => {
    if (lines.pendingBytes === 0) return null
    if (options.mode === 'backfill') return lines.next(true)
    const stat = fstatSync(fd)
    const quietSince = stat.mtimeMs + deps.quietMs
    const whole = stat.size === lines.position + lines.pendingBytes
    if (whole && deps.clock.now() >= quietSince) return lines.next(true)
    retryAt = whole ? quietSince : deps.clock.now()
    return null
  }

  for (let line = lines.next(false) ?? finalLine(); line; line = lines.next(false) ?? finalLine()) {
    builder.add(line)
    tailOpen = !line.terminated
    // A reset is one transaction, so that a search never sees the rewritten file half-read.
    const full = builder.pendingLines >= deps.batchLines || builder.pendingBytes >= deps.batchBytes
    if (!full || pendingReset) continue
    if (!commit()) return null
    if (options.maxCommits !== undefined && commits >= options.maxCommits) {
      return { status: 'more', inserted, reset, pendingBytes: 0, retryAt: null }
    }
  }
  if ((builder.pendingLines > 0 || pendingReset) && !commit()) return null
  return { status: 'caught-up', inserted, reset, pendingBytes: lines.pendingBytes, retryAt }
}

function ensureRow(deps: FileSyncDeps, location: TranscriptLocation): SourceFileRow {
  return ensureSourceFile(deps.db, location.path, location.vendor, deps.clock.now())
}

function isLineBreakAt(fd: number, offset: number): boolean {
  const byte = Buffer.alloc(1)
  if (readSync(fd, byte, 0, 1, offset) === 0) return true // nothing appended yet
  return byte[0] === 0x0a || byte[0] === 0x0d
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
