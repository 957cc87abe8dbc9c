import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import type { PresenceEntry } from '../protocol/presence.ts'

// sync_state        : where this replica stands with the team server it is attached to (one row).
//                     The attachment itself (URL, key) is a 0600 file beside the database, never a
//                     row: the database is copied into bug reports, the key must not be.
// event.origin_gseq : the gseq of an event applied from the server; NULL for events of this
//                     machine (captured or noted here). Only those are ever pushed.
// event.received_at : when a remote event was applied here (ms epoch): "landed since your last brief".
export const createSyncTables = /*sql*/ `
  CREATE TABLE sync_state (
    lock        INTEGER PRIMARY KEY DEFAULT 1 CHECK (lock = 1),
    server_url  TEXT NOT NULL,
    project_id  TEXT NOT NULL,
    cursor      INTEGER NOT NULL DEFAULT 0,   -- gseq of the last record applied
    pushed_seq  INTEGER NOT NULL DEFAULT 0,   -- every local event up to this seq was pushed and acknowledged
    presence    TEXT,                         -- JSON: the server's last presence list
    presence_at INTEGER,                      -- ms epoch it was received
    updated_at  INTEGER NOT NULL
  );
  ALTER TABLE event ADD COLUMN origin_gseq INTEGER;
  ALTER TABLE event ADD COLUMN received_at INTEGER;
  CREATE INDEX event_by_received ON event (received_at) WHERE received_at IS NOT NULL;`

// sync_state.pushed_at  : when the server last acknowledged a push of this replica (ms epoch)
// sync_state.applied_at : when records from the server were last applied here (ms epoch)
//                         Both for `doctor`: when this machine last shared, and last heard.
export const addSyncTimes = /*sql*/ `
  ALTER TABLE sync_state ADD COLUMN pushed_at INTEGER;
  ALTER TABLE sync_state ADD COLUMN applied_at INTEGER;`

export interface SyncState {
  readonly serverUrl: string
  readonly projectId: string
  readonly cursor: number
  readonly pushedSeq: number
  readonly presence: readonly PresenceEntry[] | null
  readonly presenceAt: number | null
  /** When the server last acknowledged a push from here; null before the first. */
  readonly pushedAt: number | null
  /** When records from the server were last applied here; null before the first. */
  readonly appliedAt: number | null
}

interface RawState {
  serverUrl: string
  projectId: string
  cursor: number
  pushedSeq: number
  presence: string | null
  presenceAt: number | null
  pushedAt: number | null
  appliedAt: number | null
}

export function readSyncState(db: Db): SyncState | null {
  const raw = db
    .prepare(
      /*sql*/ `SELECT server_url AS serverUrl, project_id AS projectId, cursor, pushed_seq AS pushedSeq, presence,
                      presence_at AS presenceAt, pushed_at AS pushedAt, applied_at AS appliedAt FROM sync_state`,
    )
    .get() as RawState | undefined
  if (raw === undefined) return null
  return { ...raw, presence: raw.presence === null ? null : parsePresence(raw.presence) }
}

/**
 * The position the daemon replicates from: kept for the server it belongs to; for any other server
 * (the attachment was edited by hand) it starts over, as attaching does.
 */
export function startSyncState(db: Db, serverUrl: string, projectId: string, now: number): SyncState {
  const current = readSyncState(db)
  if (current?.serverUrl !== serverUrl || current.projectId !== projectId)
    return resetSyncState(db, serverUrl, projectId, now)
  return current
}

/**
 * Attaching starts over: cursor 0 (every record is applied again; those already here change
 * nothing) and watermark 0 (every local event is pushed again; the server keeps the first copy of
 * an id). That is also how a replica recovers from a server that lost data.
 */
export function resetSyncState(db: Db, serverUrl: string, projectId: string, now: number): SyncState {
  db.prepare(
    /*sql*/ `INSERT INTO sync_state (lock, server_url, project_id, cursor, pushed_seq, presence, presence_at, updated_at)
               VALUES (1, ?, ?, 0, 0, NULL, NULL, ?)
               ON CONFLICT (lock) DO UPDATE SET server_url = excluded.server_url, project_id = excluded.project_id,
                 cursor = 0, pushed_seq = 0, presence = NULL, presence_at = NULL, updated_at = excluded.updated_at,
                 pushed_at = NULL, applied_at = NULL`,
  ).run(serverUrl, projectId, now)
  const state = readSyncState(db)
  if (state === null)
    throw new SangamError(ErrorCode.Internal, 'sync_state row vanished after it was written')
  return state
}

/** Moves the cursor; called in the transaction that applied the records up to `gseq`. */
export function writeCursor(db: Db, gseq: number, now: number): void {
  db.prepare('UPDATE sync_state SET cursor = ?, updated_at = ?, applied_at = ? WHERE lock = 1').run(
    gseq,
    now,
    now,
  )
}

/** The server acknowledged a push from `origin`'s replica just now. */
export function writePushedAt(db: Db, origin: SyncOrigin, now: number): void {
  db.prepare('UPDATE sync_state SET pushed_at = ? WHERE lock = 1 AND server_url = ? AND project_id = ?').run(
    now,
    origin.serverUrl,
    origin.projectId,
  )
}

/** The server a replication position belongs to. */
export interface SyncOrigin {
  readonly serverUrl: string
  readonly projectId: string
}

/**
 * Raises the push watermark for pushes acknowledged by `origin` (never lowers it: a late
 * acknowledgement of an older push is a no-op). If the replica was attached to another server
 * meanwhile, the acknowledgement says nothing about that server and changes nothing.
 */
export function writePushedSeq(db: Db, origin: SyncOrigin, seq: number, now: number): void {
  db.prepare(
    /*sql*/ `UPDATE sync_state SET pushed_seq = ?, updated_at = ?
             WHERE lock = 1 AND pushed_seq < ? AND server_url = ? AND project_id = ?`,
  ).run(seq, now, seq, origin.serverUrl, origin.projectId)
}

export function writePresence(db: Db, presence: readonly PresenceEntry[], now: number): void {
  db.prepare('UPDATE sync_state SET presence = ?, presence_at = ? WHERE lock = 1').run(
    JSON.stringify(presence),
    now,
  )
}

/**
 * Presence is a cache of the server's view (parsed at the edge when it arrived): an unreadable one
 * is as good as none. A type guard rather than a schema: every store open loads this module, the
 * edit hook included, and it must not pay for loading zod.
 */
function parsePresence(json: string): PresenceEntry[] | null {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) && value.every(isPresenceEntry) ? value : null
  } catch {
    return null
  }
}

function isPresenceEntry(value: unknown): value is PresenceEntry {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as Record<string, unknown>
  const actor = entry.actor as Record<string, unknown> | null | undefined
  return (
    typeof actor === 'object' &&
    actor !== null &&
    typeof actor.human === 'string' &&
    (actor.vendor === null ||
      actor.vendor === 'claude' ||
      actor.vendor === 'codex' ||
      actor.vendor === 'opencode') &&
    (actor.sessionId === null || typeof actor.sessionId === 'string') &&
    typeof entry.connections === 'number' &&
    typeof entry.online === 'boolean' &&
    (entry.lastActiveAt === null || typeof entry.lastActiveAt === 'string')
  )
}
