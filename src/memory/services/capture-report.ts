import { statSync } from 'node:fs'
import type { Db } from '../../store/database.ts'
import {
  countersOf,
  type LineCounters,
  listSourceFiles,
  type SourceFileRow,
} from '../store/source-file-table.ts'
import { listUnknownShapes } from '../store/unknown-shape-table.ts'

/** How one transcript file was accounted for: captured + skipped + unknown + unparseable = lines. */
export interface FileReport extends Readonly<LineCounters> {
  readonly path: string
  readonly vendor: string
  /** False when the file has gone since it was read (swept by its CLI, or moved). */
  readonly present: boolean
  readonly sessionId: string | null
  readonly cliVersion: string | null
  /** Events stored from this file. */
  readonly events: number
  readonly unknownShapes: readonly {
    readonly recordType: string
    readonly signature: string
    readonly cliVersion: string
    readonly count: number
  }[]
  /** Bytes consumed; always at a line boundary. */
  readonly offset: number
  readonly size: number
  /** Bytes past the offset not consumed yet: a final line still being written. */
  readonly pendingBytes: number
  /** Times the file was found rewritten or truncated and read again. */
  readonly resets: number
}

export interface CaptureTotals extends Readonly<Omit<LineCounters, 'skipReasons'>> {
  readonly files: number
  readonly events: number
  readonly pendingBytes: number
}

/** One section of doctor's report; later sections (hooks, sync) follow the same shape. */
export interface DoctorSection {
  readonly name: string
  readonly status: 'ok' | 'warn'
  /** One line each, for what a user may want to look at. */
  readonly notes: readonly string[]
}

export interface CaptureSection extends DoctorSection {
  readonly name: 'capture'
  readonly totals: CaptureTotals
  readonly files: readonly FileReport[]
}

/** The capture section over the files `include` selects, with sizes taken from disk now. */
export function captureSection(db: Db, include: (row: SourceFileRow) => boolean): CaptureSection {
  const files = listSourceFiles(db)
    .filter(include)
    .map((row) => fileReport(db, row))
  const totals: CaptureTotals = {
    files: files.length,
    lines: sum(files, 'lines'),
    captured: sum(files, 'captured'),
    skipped: sum(files, 'skipped'),
    unknown: sum(files, 'unknown'),
    unparseable: sum(files, 'unparseable'),
    events: sum(files, 'events'),
    encryptedReasoning: sum(files, 'encryptedReasoning'),
    pendingBytes: sum(files, 'pendingBytes'),
  }
  const notes = [
    totals.unknown > 0 ? `${totals.unknown} line(s) of a record shape the readers do not know yet` : null,
    totals.unparseable > 0 ? `${totals.unparseable} line(s) that are not JSON records` : null,
    totals.pendingBytes > 0 ? `${totals.pendingBytes} byte(s) of final lines still being written` : null,
  ].filter((note): note is string => note !== null)
  return { name: 'capture', status: notes.length === 0 ? 'ok' : 'warn', notes, totals, files }
}

function fileReport(db: Db, row: SourceFileRow): FileReport {
  const size = sizeOrNull(row.path)
  return {
    path: row.path,
    vendor: row.vendor,
    present: size !== null,
    sessionId: row.sessionId,
    cliVersion: row.cliVersion,
    ...countersOf(row),
    events: row.events,
    unknownShapes: listUnknownShapes(db, row.id).map((shape) => ({
      recordType: shape.recordType,
      signature: shape.signature,
      cliVersion: shape.cliVersion,
      count: shape.count,
    })),
    offset: row.offset,
    size: size ?? row.size,
    pendingBytes: size === null ? 0 : Math.max(0, size - row.offset),
    resets: row.resets,
  }
}

function sum(files: readonly FileReport[], key: keyof CaptureTotals & keyof FileReport): number {
  return files.reduce((total, file) => total + (file[key] as number), 0)
}

function sizeOrNull(path: string): number | null {
  try {
    return statSync(path).size
  } catch {
    return null
  }
}
