import type { VendorName } from '../../shared/vendor-names.ts'
import type { Db } from '../../store/db.ts'
import type { PresencePayload, PresenceVendor } from '../protocol/presence.ts'

// presence : the latest presence of every session the room knows, from this machine and (through
//            room.presence records) every other. One row per vendor + session; the record log keeps
//            the history. `change` counts this session's presence records, so the next record id is
//            presence:<vendor>:<session>:<change + 1>. Remote rows keep the machine that wrote them.
export const createPresenceTable = /*sql*/ `
  CREATE TABLE presence (
    vendor          TEXT NOT NULL,            -- claude | codex | human
    session_id      TEXT NOT NULL,
    handle          TEXT NOT NULL,            -- without @
    handle_claimed  INTEGER NOT NULL,         -- 1 once identify chose it
    human           TEXT NOT NULL,
    worktree        TEXT,                     -- absolute path, or NULL when unknown
    branch          TEXT,                     -- NULL when detached or unknown
    machine         TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('online', 'idle', 'offline')),
    updated_at      INTEGER NOT NULL,         -- ms epoch of the change
    first_seen_at   INTEGER NOT NULL,         -- ms epoch: handles de-duplicate in this order
    change          INTEGER NOT NULL,         -- the n of the last record id
    PRIMARY KEY (vendor, session_id)
  );
  CREATE INDEX presence_by_handle ON presence (handle);`

/** A presence row: the payload and the number of its last change. */
export interface PresenceRow extends PresencePayload {
  readonly change: number
}

const columns =
  'vendor, session_id, handle, handle_claimed, human, worktree, branch, machine, state, updated_at, first_seen_at, change'

/** The columns under the row's field names: SQLite answers with the aliases. */
const fields =
  'vendor, session_id AS sessionId, handle, handle_claimed AS handleClaimed, human, worktree, branch, machine, state, updated_at AS updatedAt, first_seen_at AS firstSeenAt, change'

type Row = Omit<PresenceRow, 'handleClaimed'> & { readonly handleClaimed: number }

function fromRow(row: Row): PresenceRow {
  return { ...row, handleClaimed: row.handleClaimed === 1 }
}

/** Every presence row, in first-seen order (the order handles de-duplicate in). */
export function readPresence(db: Db): PresenceRow[] {
  const rows = db
    .prepare(`SELECT ${fields} FROM presence ORDER BY first_seen_at, vendor, session_id`)
    .all() as Row[]
  return rows.map(fromRow)
}

/** One session's row, or null. */
export function readSessionPresence(db: Db, vendor: PresenceVendor, sessionId: string): PresenceRow | null {
  const row = db
    .prepare(`SELECT ${fields} FROM presence WHERE vendor = ? AND session_id = ?`)
    .get(vendor, sessionId) as Row | undefined
  return row === undefined ? null : fromRow(row)
}

/** Writes a row as given (this machine's change, or a record that won). */
export function writePresence(db: Db, row: PresenceRow): void {
  db.prepare(
    /*sql*/ `INSERT INTO presence (${columns}) VALUES (@vendor, @sessionId, @handle, @handleClaimed, @human,
       @worktree, @branch, @machine, @state, @updatedAt, @firstSeenAt, @change)
     ON CONFLICT (vendor, session_id) DO UPDATE SET handle = excluded.handle,
       handle_claimed = excluded.handle_claimed, human = excluded.human, worktree = excluded.worktree,
       branch = excluded.branch, machine = excluded.machine, state = excluded.state,
       updated_at = excluded.updated_at, first_seen_at = excluded.first_seen_at, change = excluded.change`,
  ).run({ ...row, handleClaimed: row.handleClaimed ? 1 : 0 })
}

/**
 * Applies another replica's presence record: a newer change wins (by time, then by change
 * number), so records arriving out of order or twice leave the latest. True when it changed.
 */
export function applyPresence(db: Db, row: PresenceRow): boolean {
  const current = readSessionPresence(db, row.vendor, row.sessionId)
  if (current !== null && !isNewer(row, current)) return false
  writePresence(db, {
    ...row,
    firstSeenAt: Math.min(row.firstSeenAt, current?.firstSeenAt ?? row.firstSeenAt),
  })
  return true
}

function isNewer(incoming: PresenceRow, current: PresenceRow): boolean {
  if (incoming.updatedAt !== current.updatedAt) return incoming.updatedAt > current.updatedAt
  return incoming.change > current.change
}

/** A session capture recorded on this machine that the room has no presence for. */
export interface UnregisteredSession {
  readonly id: string
  readonly vendor: VendorName
  readonly author: string
  readonly cwd: string | null
  readonly branch: string | null
  readonly firstAt: number
  readonly lastAt: number
}

/**
 * Agent sessions with events after `since` that this machine captured (their events did not come
 * from the team server: one event tells, since a session's events all come one way) and that have
 * no presence row: sessions whose hooks never reported. Oldest first.
 */
export function unregisteredLocalSessions(db: Db, since: number): UnregisteredSession[] {
  return db
    .prepare(
      /*sql*/ `SELECT s.id, s.vendor, s.author, s.cwd, s.branch, s.first_at AS firstAt, s.last_at AS lastAt
               FROM session s
               WHERE s.last_at > ? AND s.vendor IN ('claude', 'codex')
                 AND NOT EXISTS (SELECT 1 FROM presence p WHERE p.vendor = s.vendor AND p.session_id = s.id)
                 AND (SELECT e.origin_gseq FROM event e INDEXED BY event_by_session
                      WHERE e.session_id = s.id LIMIT 1) IS NULL
                 AND EXISTS (SELECT 1 FROM event e INDEXED BY event_by_session WHERE e.session_id = s.id)
               ORDER BY s.first_at, s.id`,
    )
    .all(since) as UnregisteredSession[]
}
