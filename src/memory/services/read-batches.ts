import { fstatSync, readSync } from 'node:fs'
import { ByteFingerprint } from '../../agents/byte-fingerprint.ts'
import { JsonlFileReader, type JsonlLine } from '../../agents/jsonl-file-reader.ts'
import type { TranscriptReader, TranscriptVendor } from '../../agents/transcript-reader.ts'
import { scrubNullable } from '../../secrets/core/scrubber.ts'
import type { CaptureBatch } from '../store/capture-store.ts'
import { countersOf, type SourceFileRow, zeroCounters } from '../store/source-file-table.ts'
import { BatchBuilder } from './batch.ts'
import { EventConverter } from './event-converter.ts'

/** What reading needs besides the file: no database, so a worker thread can do it too. */
export interface ReadContext {
  /** The project's human, the author of every captured event. */
  readonly author: string
  readonly readerFor: (vendor: TranscriptVendor) => TranscriptReader<unknown>
  /** Live mode takes a final line without `\n` only once the file has been quiet this long. */
  readonly quietMs: number
  /** A batch is cut every so many lines or bytes. */
  readonly batchLines: number
  readonly batchBytes: number
  readonly now: () => number
}

export type ReadMode = 'live' | 'backfill'

/** One batch ready to commit, the transcript bytes it covers, and whether the file ends with it. */
export interface ReadBatch {
  readonly batch: CaptureBatch
  readonly bytes: number
  readonly last: boolean
}

export interface ReadEnd {
  /** The file was found rewritten, and the batches read it from the start (deleting the old). */
  readonly reset: boolean
  /** Bytes past the last batch that do not form a line yet. */
  readonly pendingBytes: number
  /** In live mode, when a pending final line may be taken if the file stays quiet; else null. */
  readonly retryAt: number | null
}

/**
 * Reads a file on from the offset its row records, in batches ready to commit. The bytes before
 * the offset are checked first (fingerprint, and the newline owed by a final line taken without
 * one); if they changed, the file is read from byte 0 in a single batch that deletes what was read
 * before, so a search never sees a rewritten file half-read. Each batch carries the offset and
 * fingerprint it starts from, so a commit can refuse a batch another process overtook.
 */
export function* readBatches(
  ctx: ReadContext,
  row: SourceFileRow,
  fd: number,
  mode: ReadMode,
): Generator<ReadBatch, ReadEnd, void> {
  const resume = resumePoint(row, fd)
  const reset = resume === null
  const start = resume ?? { offset: 0, fingerprint: ByteFingerprint.empty() }
  const reader = ctx.readerFor(row.vendor)
  const fresh = start.offset === 0
  const builder = new BatchBuilder(
    reader,
    new EventConverter(
      { vendor: row.vendor, sourceFileId: row.id, author: ctx.author },
      fresh ? '{}' : row.threadOrdinals,
    ),
    fresh ? reader.initialState() : reader.restore(row.readerState),
    fresh ? zeroCounters() : countersOf(row),
  )
  const lines = new JsonlFileReader(fd, start.offset, start.fingerprint)
  let from = { offset: row.offset, fingerprint: row.fingerprint }
  let pendingReset = reset
  let tailOpen = fresh ? false : row.tailOpen
  let retryAt: number | null = null

  const cut = (last: boolean): ReadBatch => {
    const bytes = builder.pendingBytes
    const { events, unknownShapes } = builder.take()
    const facts = reader.facts(builder.state)
    const fingerprint = start.fingerprint.digest()
    const stat = fstatSync(fd)
    const batch: CaptureBatch = {
      sourceFileId: row.id,
      fromOffset: from.offset,
      fromFingerprint: from.fingerprint,
      reset: pendingReset,
      events,
      unknownShapes,
      progress: {
        id: row.id,
        sessionId: scrubNullable(facts.sessionId),
        cliVersion: scrubNullable(facts.cliVersion),
        firstCwd: row.firstCwd,
        inScope: true,
        offset: lines.position,
        fingerprint,
        tailOpen,
        size: Math.max(stat.size, lines.position),
        mtime: Math.floor(stat.mtimeMs),
        readerState: reader.serialise(builder.state),
        threadOrdinals: builder.ordinals(),
        ...builder.counters,
        skipReasons: { ...builder.counters.skipReasons },
        updatedAt: ctx.now(),
      },
    }
    from = { offset: lines.position, fingerprint }
    pendingReset = false
    return { batch, bytes, last }
  }

  const finalLine = (): JsonlLine | null => {
    if (lines.pendingBytes === 0) return null
    if (mode === 'backfill') return lines.next(true)
    const stat = fstatSync(fd)
    const quietSince = stat.mtimeMs + ctx.quietMs
    const whole = stat.size === lines.position + lines.pendingBytes
    if (whole && ctx.now() >= quietSince) return lines.next(true)
    retryAt = whole ? quietSince : ctx.now()
    return null
  }

  for (let line = lines.next(false) ?? finalLine(); line; line = lines.next(false) ?? finalLine()) {
    builder.add(line)
    tailOpen = !line.terminated
    const full = builder.pendingLines >= ctx.batchLines || builder.pendingBytes >= ctx.batchBytes
    if (full && !pendingReset) yield cut(false)
  }
  if (builder.pendingLines > 0 || pendingReset) yield cut(true)
  return { reset, pendingBytes: lines.pendingBytes, retryAt }
}

/** Where reading resumes: the stored offset if the bytes before it are unchanged, else null. */
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

function isLineBreakAt(fd: number, offset: number): boolean {
  const byte = Buffer.alloc(1)
  if (readSync(fd, byte, 0, 1, offset) === 0) return true // nothing appended yet
  return byte[0] === 0x0a || byte[0] === 0x0d
}
