import type { Db, Statement } from '../../store/db.ts'
import type { EventInsert } from './event-table.ts'

// One row per agent session seen, kept current by capture, so the brief can say who was active
// without scanning events. A session's events may come from several files (Claude subagents).
export const createSessionTable = /*sql*/ `
  CREATE TABLE session (
    id          TEXT PRIMARY KEY,   -- the vendor's session id
    vendor      TEXT NOT NULL,
    author      TEXT NOT NULL,
    cli_version TEXT,
    cwd         TEXT,
    branch      TEXT,
    first_at    INTEGER NOT NULL,
    last_at     INTEGER NOT NULL,
    events      INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX session_by_last_at ON session (last_at);`

export interface SessionRow {
  readonly id: string
  readonly vendor: string
  readonly author: string
  readonly cliVersion: string | null
  readonly cwd: string | null
  readonly branch: string | null
  readonly firstAt: number
  readonly lastAt: number
  readonly events: number
}

/** What one store of a session's events says about it: `at` is its newest (or oldest) event. */
export type SessionTouch = Omit<SessionRow, 'firstAt' | 'lastAt'> & { readonly at: number }

/** What storing `events` events of a session says about it, as of `event` (the session's latest or earliest). */
export function sessionTouchOf(
  event: Pick<EventInsert, 'sessionId' | 'vendor' | 'author' | 'cliVersion' | 'cwd' | 'branch' | 'at'>,
  events: number,
): SessionTouch {
  return {
    id: event.sessionId,
    vendor: event.vendor,
    author: event.author,
    cliVersion: event.cliVersion,
    cwd: event.cwd,
    branch: event.branch,
    at: event.at,
    events,
  }
}

export class SessionWriter {
  readonly #touch: Statement

  constructor(db: Db) {
    this.#touch = db.prepare(
      /*sql*/ `INSERT INTO session (id, vendor, author, cli_version, cwd, branch, first_at, last_at, events)
               VALUES (@id, @vendor, @author, @cliVersion, @cwd, @branch, @at, @at, @events)
               ON CONFLICT (id) DO UPDATE SET
                 events = events + excluded.events,
                 first_at = min(first_at, excluded.first_at),
                 last_at = max(last_at, excluded.last_at),
                 cli_version = CASE WHEN excluded.last_at >= last_at THEN coalesce(excluded.cli_version, cli_version) ELSE cli_version END,
                 cwd = CASE WHEN excluded.last_at >= last_at THEN coalesce(excluded.cwd, cwd) ELSE cwd END,
                 branch = CASE WHEN excluded.last_at >= last_at THEN coalesce(excluded.branch, branch) ELSE branch END`,
    )
  }

  /** Records that `events` events of a session were stored, the latest at `at`. */
  touch(session: SessionTouch): void {
    this.#touch.run(session)
  }
}

export function listActiveSessions(db: Db, since: number, limit: number): SessionRow[] {
  return db
    .prepare(
      /*sql*/ `SELECT id, vendor, author, cli_version AS cliVersion, cwd, branch, first_at AS firstAt, last_at AS lastAt, events
               FROM session WHERE last_at >= ? ORDER BY last_at DESC LIMIT ?`,
    )
    .all(since, limit) as SessionRow[]
}

export function countActiveSessions(db: Db, since: number): number {
  return (db.prepare('SELECT count(*) AS n FROM session WHERE last_at >= ?').get(since) as { n: number }).n
}

/** Recounts sessions from events; used after a rewritten file's events were deleted. */
export function rebuildSessions(db: Db): void {
  db.exec(/*sql*/ `
    DELETE FROM session;
    INSERT INTO session (id, vendor, author, cli_version, cwd, branch, first_at, last_at, events)
      SELECT session_id, vendor, author, cli_version, cwd, branch, min(at), max(at), count(*)
      FROM event WHERE kind != 'note' GROUP BY session_id;`)
}
