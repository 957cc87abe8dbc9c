import type { Db } from '../../store/db.ts'
import type { RoomThread } from '../protocol/thread.ts'

// room_thread : the latest state of every thread of the room. A change made here is written
//   with gseq NULL; a pulled state replaces the row when it is newer by (updated_at, gseq), so
//   every machine settles on the same state whatever order the records arrive in.
export const createThreadTable = /*sql*/ `
  CREATE TABLE room_thread (
    id             TEXT PRIMARY KEY,
    title          TEXT NOT NULL,
    reason         TEXT,
    audience       TEXT NOT NULL,
    lifetime       TEXT NOT NULL,
    status         TEXT NOT NULL,
    participants   TEXT NOT NULL,   -- JSON array of tokens
    paths          TEXT NOT NULL,   -- JSON array
    source         TEXT NOT NULL,
    opener_vendor  TEXT,
    opener_session TEXT,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    gseq           INTEGER          -- of the record this state came from; NULL when made here
  );
  CREATE INDEX room_thread_status ON room_thread (status, updated_at);`

interface ThreadRow {
  id: string
  title: string
  reason: string | null
  audience: string
  lifetime: string
  status: string
  participants: string
  paths: string
  source: string
  opener_vendor: string | null
  opener_session: string | null
  created_at: number
  updated_at: number
  gseq: number | null
}

function fromRow(row: ThreadRow): RoomThread {
  return {
    id: row.id,
    title: row.title,
    reason: row.reason,
    audience: row.audience as RoomThread['audience'],
    lifetime: row.lifetime as RoomThread['lifetime'],
    status: row.status as RoomThread['status'],
    participants: JSON.parse(row.participants) as string[],
    paths: JSON.parse(row.paths) as string[],
    source: row.source,
    opener:
      row.opener_vendor !== null && row.opener_session !== null
        ? { vendor: row.opener_vendor, sessionId: row.opener_session }
        : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

const upsert = /*sql*/ `
  INSERT INTO room_thread (id, title, reason, audience, lifetime, status, participants, paths, source,
    opener_vendor, opener_session, created_at, updated_at, gseq)
  VALUES (@id, @title, @reason, @audience, @lifetime, @status, @participants, @paths, @source,
    @openerVendor, @openerSession, @createdAt, @updatedAt, @gseq)
  ON CONFLICT (id) DO UPDATE SET
    title = excluded.title, reason = excluded.reason, audience = excluded.audience,
    lifetime = excluded.lifetime, status = excluded.status, participants = excluded.participants,
    paths = excluded.paths, source = excluded.source, opener_vendor = excluded.opener_vendor,
    opener_session = excluded.opener_session, created_at = excluded.created_at,
    updated_at = excluded.updated_at, gseq = excluded.gseq
  WHERE excluded.updated_at > room_thread.updated_at
     OR (excluded.updated_at = room_thread.updated_at
         AND coalesce(excluded.gseq, 0) >= coalesce(room_thread.gseq, 0))`

/**
 * Writes a thread's state unless the stored one is newer by (updatedAt, gseq); a state made here
 * (`gseq` null) always replaces an older one. True when the row changed.
 */
export function writeThread(db: Db, thread: RoomThread, gseq: number | null): boolean {
  return (
    db.prepare(upsert).run({
      id: thread.id,
      title: thread.title,
      reason: thread.reason,
      audience: thread.audience,
      lifetime: thread.lifetime,
      status: thread.status,
      participants: JSON.stringify(thread.participants),
      paths: JSON.stringify(thread.paths),
      source: thread.source,
      openerVendor: thread.opener?.vendor ?? null,
      openerSession: thread.opener?.sessionId ?? null,
      createdAt: thread.createdAt,
      updatedAt: thread.updatedAt,
      gseq,
    }).changes > 0
  )
}

export function threadById(db: Db, id: string): RoomThread | null {
  const row = db.prepare('SELECT * FROM room_thread WHERE id = ?').get(id) as ThreadRow | undefined
  return row === undefined ? null : fromRow(row)
}

/** Threads, most recently changed first; only the open ones unless `all`. */
export function listThreadRows(db: Db, options: { readonly all: boolean }): RoomThread[] {
  const rows = (
    options.all
      ? db.prepare('SELECT * FROM room_thread ORDER BY updated_at DESC, id')
      : db.prepare("SELECT * FROM room_thread WHERE status = 'open' ORDER BY updated_at DESC, id")
  ).all() as ThreadRow[]
  return rows.map(fromRow)
}

/**
 * `vendor:sessionId` of every session that opened a human-loop thread still open: such a session
 * is `blocked` once its turn stops (waiting on a human), whatever its last presence said.
 */
export function openHumanLoopOpeners(db: Db): Set<string> {
  const rows = db
    .prepare(
      /*sql*/ `SELECT DISTINCT opener_vendor AS vendor, opener_session AS session FROM room_thread
       WHERE status = 'open' AND audience = 'human-loop' AND opener_session IS NOT NULL`,
    )
    .all() as { vendor: string; session: string }[]
  return new Set(rows.map((row) => `${row.vendor}:${row.session}`))
}
