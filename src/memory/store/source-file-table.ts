import type { VendorName } from '../../shared/vendor-names.ts'
import type { Db } from '../../store/db.ts'
import { cachedStatement } from '../../store/statement-cache.ts'

// One row per transcript file sangam has looked at. The offset, reader state and line counters of
// a file are written in the same transaction as the events read from it, which is what makes
// capture exactly-once across a crash. The DDL is a released step (never edited): its vendor column
// holds any name of shared/vendor-names.ts, though its comment names the first two.
export const createSourceFileTable = /*sql*/ `
  CREATE TABLE source_file (
    id                  INTEGER PRIMARY KEY,
    path                TEXT NOT NULL UNIQUE,   -- absolute
    vendor              TEXT NOT NULL,          -- 'claude' | 'codex'
    session_id          TEXT,                   -- from the records, once seen
    cli_version         TEXT,                   -- latest seen
    first_cwd           TEXT,                   -- first cwd seen in the records; decides scope
    in_scope            INTEGER,                -- 1 inside the project, 0 outside, NULL not known yet
    offset              INTEGER NOT NULL DEFAULT 0,   -- bytes consumed (always at a line boundary)
    fingerprint         TEXT NOT NULL DEFAULT '',     -- hex of the bytes just before offset: detects rewrites
    tail_open           INTEGER NOT NULL DEFAULT 0,   -- 1 when the last consumed line had no newline yet
    size                INTEGER NOT NULL DEFAULT 0,   -- size at the last read
    mtime               INTEGER NOT NULL DEFAULT 0,   -- ms epoch at the last read
    reader_state        TEXT NOT NULL DEFAULT '{}',   -- the vendor reader's JSON state at offset
    lines               INTEGER NOT NULL DEFAULT 0,   -- non-blank lines consumed
    captured            INTEGER NOT NULL DEFAULT 0,
    skipped             INTEGER NOT NULL DEFAULT 0,
    unknown             INTEGER NOT NULL DEFAULT 0,
    unparseable         INTEGER NOT NULL DEFAULT 0,
    events              INTEGER NOT NULL DEFAULT 0,   -- events stored from this file
    encrypted_reasoning INTEGER NOT NULL DEFAULT 0,   -- counted, never stored
    skip_reasons        TEXT NOT NULL DEFAULT '{}',   -- JSON {reason: lines}
    resets              INTEGER NOT NULL DEFAULT 0,   -- times found truncated or rewritten and re-read
    updated_at          INTEGER NOT NULL DEFAULT 0
  );`

/**
 * Migration 5: how many events capture has numbered in each history a file holds (the file's own
 * session, a parent's replayed history, a subagent), as JSON `{thread: count}`. An event id is
 * derived from its history, its number in it and its content, so the counts are stored in the same
 * transaction as the events, like the reader state.
 */
export const addThreadOrdinals = /*sql*/ `
  ALTER TABLE source_file ADD COLUMN thread_ordinals TEXT NOT NULL DEFAULT '{}';`

/** How every non-blank line of a file was accounted for; captured + skipped + unknown + unparseable = lines. */
export interface LineCounters {
  /** Non-blank lines consumed. */
  lines: number
  captured: number
  skipped: number
  unknown: number
  unparseable: number
  /** Encrypted reasoning items: counted, never stored. */
  encryptedReasoning: number
  skipReasons: Record<string, number>
}

export interface SourceFileRow extends Readonly<LineCounters> {
  readonly id: number
  readonly path: string
  readonly vendor: VendorName
  readonly sessionId: string | null
  readonly cliVersion: string | null
  readonly firstCwd: string | null
  readonly inScope: boolean | null
  readonly offset: number
  readonly fingerprint: string
  readonly tailOpen: boolean
  readonly size: number
  readonly mtime: number
  readonly readerState: string
  /** JSON `{thread: events numbered}` (see `addThreadOrdinals`). */
  readonly threadOrdinals: string
  /** Events stored from this file. */
  readonly events: number
  readonly resets: number
  readonly updatedAt: number
}

export function zeroCounters(): LineCounters {
  return {
    lines: 0,
    captured: 0,
    skipped: 0,
    unknown: 0,
    unparseable: 0,
    encryptedReasoning: 0,
    skipReasons: {},
  }
}

/** A fresh copy of a row's counters, to count on from. */
export function countersOf(row: Readonly<LineCounters>): LineCounters {
  return {
    lines: row.lines,
    captured: row.captured,
    skipped: row.skipped,
    unknown: row.unknown,
    unparseable: row.unparseable,
    encryptedReasoning: row.encryptedReasoning,
    skipReasons: { ...row.skipReasons },
  }
}

const selectColumns = /*sql*/ `
  id, path, vendor, session_id AS sessionId, cli_version AS cliVersion, first_cwd AS firstCwd,
  in_scope AS inScope, offset, fingerprint, tail_open AS tailOpen, size, mtime, reader_state AS readerState,
  thread_ordinals AS threadOrdinals,
  lines, captured, skipped, unknown, unparseable, events, encrypted_reasoning AS encryptedReasoning,
  skip_reasons AS skipReasons, resets, updated_at AS updatedAt`

interface RawRow extends Omit<SourceFileRow, 'inScope' | 'tailOpen' | 'skipReasons'> {
  inScope: number | null
  tailOpen: number
  skipReasons: string
}

function toRow(raw: RawRow): SourceFileRow {
  return {
    ...raw,
    inScope: raw.inScope === null ? null : raw.inScope === 1,
    tailOpen: raw.tailOpen === 1,
    skipReasons: JSON.parse(raw.skipReasons) as Record<string, number>,
  }
}

export function getSourceFile(db: Db, path: string): SourceFileRow | null {
  const raw = cachedStatement(db, `SELECT ${selectColumns} FROM source_file WHERE path = ?`).get(path) as
    | RawRow
    | undefined
  return raw ? toRow(raw) : null
}

export function getSourceFileById(db: Db, id: number): SourceFileRow | null {
  const raw = cachedStatement(db, `SELECT ${selectColumns} FROM source_file WHERE id = ?`).get(id) as
    | RawRow
    | undefined
  return raw ? toRow(raw) : null
}

export function listSourceFiles(db: Db): SourceFileRow[] {
  return (db.prepare(`SELECT ${selectColumns} FROM source_file ORDER BY path`).all() as RawRow[]).map(toRow)
}

/** When capture last read any transcript file, or null if it never did. */
export function lastCaptureAt(db: Db): number | null {
  const { at } = db.prepare('SELECT max(updated_at) AS at FROM source_file').get() as { at: number | null }
  return at === null || at === 0 ? null : at
}

/** Returns the row for `path`, creating an empty one first if needed. */
export function ensureSourceFile(db: Db, path: string, vendor: VendorName, now: number): SourceFileRow {
  cachedStatement(
    db,
    'INSERT INTO source_file (path, vendor, updated_at) VALUES (?, ?, ?) ON CONFLICT (path) DO NOTHING',
  ).run(path, vendor, now)
  const row = getSourceFile(db, path)
  if (!row) throw new Error(`source_file row for ${path} vanished`)
  return row
}

/** What one read of a file changes; applied in the same transaction as the events it produced. */
export type SourceFileProgress = Omit<SourceFileRow, 'path' | 'vendor' | 'resets'>

/** The statement that writes a file's progress; its parameters are `progressParameters`. */
export const writeProgressSql = /*sql*/ `
  UPDATE source_file SET session_id = @sessionId, cli_version = @cliVersion, first_cwd = @firstCwd,
    in_scope = @inScope, offset = @offset, fingerprint = @fingerprint, tail_open = @tailOpen, size = @size,
    mtime = @mtime, reader_state = @readerState, thread_ordinals = @threadOrdinals, lines = @lines,
    captured = @captured, skipped = @skipped, unknown = @unknown, unparseable = @unparseable, events = @events,
    encrypted_reasoning = @encryptedReasoning, skip_reasons = @skipReasons, updated_at = @updatedAt
  WHERE id = @id`

export function progressParameters(progress: SourceFileProgress): Record<string, unknown> {
  return {
    ...progress,
    inScope: progress.inScope === null ? null : progress.inScope ? 1 : 0,
    tailOpen: progress.tailOpen ? 1 : 0,
    skipReasons: JSON.stringify(progress.skipReasons),
  }
}

export function writeSourceFileProgress(db: Db, progress: SourceFileProgress): void {
  cachedStatement(db, writeProgressSql).run(progressParameters(progress))
}

/**
 * Forgets everything read from a file so it is read again from byte 0: used when a file shrank or
 * its bytes before our offset changed. The caller deletes the file's events in the same transaction.
 */
export function resetSourceFile(db: Db, id: number, now: number): void {
  cachedStatement(
    db,
    /*sql*/ `UPDATE source_file SET offset = 0, fingerprint = '', tail_open = 0, size = 0, reader_state = '{}',
      thread_ordinals = '{}', lines = 0, captured = 0, skipped = 0, unknown = 0, unparseable = 0, events = 0, encrypted_reasoning = 0,
      skip_reasons = '{}', resets = resets + 1, updated_at = ? WHERE id = ?`,
  ).run(now, id)
}

/**
 * Records which project a file belongs to, decided once from the first cwd its records give (or
 * that none was found yet: `inScope` null). Size and mtime are kept so an unchanged undecided file
 * is not scanned again.
 */
export function recordSourceFileScope(
  db: Db,
  id: number,
  scope: { firstCwd: string | null; inScope: boolean | null; size: number; mtime: number; now: number },
): void {
  cachedStatement(
    db,
    /*sql*/ `UPDATE source_file SET first_cwd = @firstCwd, in_scope = @inScope, size = @size, mtime = @mtime,
      updated_at = @now WHERE id = @id AND in_scope IS NULL`,
  ).run({ ...scope, id, inScope: scope.inScope === null ? null : scope.inScope ? 1 : 0 })
}

/** Rows of this vendor, at another path, whose file name is `name`: candidates for a moved file. */
export function listSourceFilesNamed(db: Db, vendor: VendorName, name: string): SourceFileRow[] {
  const suffix = `/${name}`
  const rows = db
    .prepare(
      `SELECT ${selectColumns} FROM source_file WHERE vendor = ? AND substr(path, -length(?)) = ? ORDER BY id`,
    )
    .all(vendor, suffix, suffix) as RawRow[]
  return rows.map(toRow)
}

/** Points a row (and so every event read from it) at the file's new path. */
export function moveSourceFile(db: Db, id: number, path: string, now: number): void {
  cachedStatement(db, 'UPDATE source_file SET path = ?, updated_at = ? WHERE id = ?').run(path, now, id)
}
