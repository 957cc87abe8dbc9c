import type { Db, Statement } from '../../store/db.ts'
import { cachedStatement } from '../../store/statement-cache.ts'
import type { Event, EventKind, Vendor } from '../protocol/event.ts'

// event     : every captured event and every note. `seq` is the local insertion order and the FTS rowid;
//             `id` is deterministic (history + number in it + content) so a replay cannot insert twice.
// join_key  : set on events that later lines may extend (Claude splits one API message over many lines).
// event_fts : external-content FTS5 over `text`, maintained by EventWriter in the same transaction as
//             the row (not by triggers, so a backfill can batch it).
export const createEventTable = /*sql*/ `
  CREATE TABLE event (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    kind           TEXT NOT NULL,     -- human | assistant | thinking | tool_call | tool_output | system | note
    vendor         TEXT NOT NULL,     -- claude | codex | sangam
    cli_version    TEXT,
    session_id     TEXT NOT NULL,
    author         TEXT NOT NULL,     -- the human the session acts for
    cwd            TEXT,
    branch         TEXT,
    at             INTEGER NOT NULL,  -- ms epoch, from the transcript line
    source_file_id INTEGER REFERENCES source_file(id),
    byte_offset    INTEGER,           -- start of the line in the source file
    part           INTEGER NOT NULL DEFAULT 0,   -- index of the event among those from one line
    tool_name      TEXT,
    call_id        TEXT,
    join_key       TEXT,
    text           TEXT NOT NULL,     -- scrubbed; tool output bounded
    full_size      INTEGER NOT NULL,  -- characters before bounding
    shareable      INTEGER NOT NULL   -- 0 for tool output unless the project opts in
  );
  CREATE INDEX event_by_session ON event (session_id, at);
  CREATE INDEX event_by_source ON event (source_file_id, byte_offset, part);
  CREATE INDEX event_by_at ON event (at);
  CREATE UNIQUE INDEX event_by_join_key ON event (source_file_id, join_key) WHERE join_key IS NOT NULL;
  CREATE VIRTUAL TABLE event_fts USING fts5 (
    text, content = 'event', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
  );`

/** An event as written: the wire shape plus the local columns. */
export interface EventInsert {
  readonly id: string
  readonly kind: EventKind
  readonly vendor: Vendor
  readonly cliVersion: string | null
  readonly sessionId: string
  readonly author: string
  readonly cwd: string | null
  readonly branch: string | null
  readonly at: number
  readonly sourceFileId: number | null
  readonly byteOffset: number | null
  readonly part: number
  readonly toolName: string | null
  readonly callId: string | null
  readonly joinKey: string | null
  readonly text: string
  readonly fullSize: number
  readonly shareable: boolean
}

/** The row a teammate's event (the wire shape) is stored as: the local columns are this machine's. */
export function eventInsertOf(
  event: Event,
  local: { readonly sourceFileId: number | null; readonly joinKey: string | null },
): EventInsert {
  const { sourcePath: _path, at, ...fields } = event
  return { ...fields, at: Date.parse(at), ...local }
}

export type InsertOutcome = 'inserted' | 'duplicate'

/**
 * Prepared statements for the capture hot path. One instance per database connection; every call
 * must run inside the caller's transaction.
 */
export class EventWriter {
  readonly #insert: Statement
  readonly #ftsInsert: Statement
  readonly #ftsDelete: Statement
  readonly #findJoin: Statement
  readonly #setText: Statement

  constructor(db: Db) {
    // Positional parameters: binding 18 named ones looks each up by name on a fresh object, which
    // showed in a backfill's inserts (about 8 % of their CPU).
    this.#insert = db.prepare(
      /*sql*/ `INSERT INTO event (seq, id, kind, vendor, cli_version, session_id, author, cwd, branch, at,
                 source_file_id, byte_offset, part, tool_name, call_id, join_key, text, full_size, shareable)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT DO NOTHING`,
    )
    this.#ftsInsert = db.prepare('INSERT INTO event_fts (rowid, text) VALUES (?, ?)')
    this.#ftsDelete = db.prepare(`INSERT INTO event_fts (event_fts, rowid, text) VALUES ('delete', ?, ?)`)
    this.#findJoin = db.prepare(
      'SELECT seq, text, full_size AS fullSize FROM event WHERE source_file_id = ? AND join_key = ?',
    )
    this.#setText = db.prepare('UPDATE event SET text = ?, full_size = ? WHERE seq = ?')
  }

  /**
   * Inserts an event and indexes it; a second insert of the same id changes nothing. `seq` is
   * null to take the next one; see `nextSeqAbove` for when it must be given.
   */
  insert(event: EventInsert, seq: number | null = null): InsertOutcome {
    const result = this.#insert.run(
      seq,
      event.id,
      event.kind,
      event.vendor,
      event.cliVersion,
      event.sessionId,
      event.author,
      event.cwd,
      event.branch,
      event.at,
      event.sourceFileId,
      event.byteOffset,
      event.part,
      event.toolName,
      event.callId,
      event.joinKey,
      event.text,
      event.fullSize,
      event.shareable ? 1 : 0,
    )
    if (result.changes === 0) return 'duplicate'
    this.#ftsInsert.run(result.lastInsertRowid, event.text)
    return 'inserted'
  }

  /**
   * Appends text to the event of this file that carries `joinKey` (Claude writes one assistant
   * message as one line per content block). Returns false when there is no such event yet.
   */
  append(sourceFileId: number, joinKey: string, text: string, separator = '\n\n'): boolean {
    const row = this.#findJoin.get(sourceFileId, joinKey) as
      | { seq: number; text: string; fullSize: number }
      | undefined
    if (!row) return false
    const joined = row.text === '' ? text : `${row.text}${separator}${text}`
    this.#ftsDelete.run(row.seq, row.text)
    this.#setText.run(joined, row.fullSize + separator.length + text.length, row.seq)
    this.#ftsInsert.run(row.seq, joined)
    return true
  }
}

/**
 * Deletes every event read from one file (and its index entries); used when the file was rewritten.
 * Returns the highest seq the table held before: the events inserted next must be given seqs above
 * it (SQLite reuses the largest rowids once deleted, and the push watermark is a seq, so a reused
 * seq would never be pushed).
 */
export function deleteEventsOfSourceFile(db: Db, sourceFileId: number): { deleted: number; maxSeq: number } {
  const { maxSeq } = db.prepare('SELECT coalesce(max(seq), 0) AS maxSeq FROM event').get() as {
    maxSeq: number
  }
  const rows = db.prepare('SELECT seq, text FROM event WHERE source_file_id = ?').all(sourceFileId) as {
    seq: number
    text: string
  }[]
  const ftsDelete = db.prepare(`INSERT INTO event_fts (event_fts, rowid, text) VALUES ('delete', ?, ?)`)
  for (const row of rows) ftsDelete.run(row.seq, row.text)
  const deleted = db.prepare('DELETE FROM event WHERE source_file_id = ?').run(sourceFileId).changes
  return { deleted, maxSeq }
}

interface EventRowRaw {
  seq: number
  id: string
  kind: EventKind
  vendor: Vendor
  cliVersion: string | null
  sessionId: string
  author: string
  cwd: string | null
  branch: string | null
  at: number
  sourcePath: string | null
  byteOffset: number | null
  part: number
  toolName: string | null
  callId: string | null
  text: string
  fullSize: number
  shareable: number
}

/**
 * The columns every read of events selects, with the source path. The path is a subquery, not a
 * LEFT JOIN: the SQLite in Node (3.54) compiles a join whose WHERE compares a bound value anew on
 * every run, which doubled the cost of reading one event (docs/performance.md, D391).
 */
export const eventSelect = /*sql*/ `
  SELECT e.seq, e.id, e.kind, e.vendor, e.cli_version AS cliVersion, e.session_id AS sessionId, e.author, e.cwd,
         e.branch, e.at, (SELECT f.path FROM source_file f WHERE f.id = e.source_file_id) AS sourcePath,
         e.byte_offset AS byteOffset, e.part, e.tool_name AS toolName, e.call_id AS callId, e.text,
         e.full_size AS fullSize, e.shareable
  FROM event e`

/** A stored event: the wire shape plus its local order. */
export interface StoredEvent extends Event {
  readonly seq: number
}

/** The wire shape of a stored event: what is shared with the team. */
export function wireEventOf(stored: StoredEvent): Event {
  const { seq: _seq, ...event } = stored
  return event
}

/** The one mapping from an event row (`eventSelect`) to its shape; every other shape is derived from it. */
export function toStoredEvent(raw: unknown): StoredEvent {
  const row = raw as EventRowRaw
  return {
    seq: row.seq,
    id: row.id,
    kind: row.kind,
    vendor: row.vendor,
    cliVersion: row.cliVersion,
    sessionId: row.sessionId,
    author: row.author,
    cwd: row.cwd,
    branch: row.branch,
    at: new Date(row.at).toISOString(),
    sourcePath: row.sourcePath,
    byteOffset: row.byteOffset,
    part: row.part,
    toolName: row.toolName,
    callId: row.callId,
    text: row.text,
    fullSize: row.fullSize,
    shareable: row.shareable === 1,
  }
}

export function getEventById(db: Db, id: string): StoredEvent | null {
  const raw = cachedStatement(db, `${eventSelect} WHERE e.id = ?`).get(id)
  return raw ? toStoredEvent(raw) : null
}

export function countEvents(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM event').get() as { n: number }).n
}
