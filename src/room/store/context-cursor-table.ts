import type { Db } from '../../store/db.ts'

// room_context_cursor : per agent session, how far into this replica's room_message the hooks
//   have carried it (UserPromptSubmit, SessionStart). `seen_seq` is a local seq: every message
//   that reaches this replica, posted here or pulled, gets a larger one than all before it, so
//   "seq > seen_seq" is exactly what the session has not been shown. Local on purpose: a session
//   runs on one machine, and its hooks read only this replica.
export const createContextCursorTable = /*sql*/ `
  CREATE TABLE room_context_cursor (
    vendor     TEXT NOT NULL,
    session_id TEXT NOT NULL,
    seen_seq   INTEGER NOT NULL,  -- room_message.seq up to which the session was carried
    updated_at INTEGER NOT NULL,  -- ms epoch
    PRIMARY KEY (vendor, session_id)
  );`

export interface ContextCursor {
  readonly vendor: string
  readonly sessionId: string
  readonly seenSeq: number
  readonly updatedAt: number
}

/** The session's cursor, or null before its first context. */
export function readContextCursor(db: Db, vendor: string, sessionId: string): ContextCursor | null {
  const row = db
    .prepare(
      /*sql*/ `SELECT vendor, session_id AS sessionId, seen_seq AS seenSeq, updated_at AS updatedAt
               FROM room_context_cursor WHERE vendor = ? AND session_id = ?`,
    )
    .get(vendor, sessionId) as ContextCursor | undefined
  return row ?? null
}

/** Moves the session's cursor forward to `seenSeq` (never back). */
export function advanceContextCursor(db: Db, cursor: ContextCursor): void {
  db.prepare(
    /*sql*/ `INSERT INTO room_context_cursor (vendor, session_id, seen_seq, updated_at)
             VALUES (@vendor, @sessionId, @seenSeq, @updatedAt)
             ON CONFLICT (vendor, session_id) DO UPDATE SET
               seen_seq = max(seen_seq, excluded.seen_seq), updated_at = excluded.updated_at`,
  ).run(cursor)
}
