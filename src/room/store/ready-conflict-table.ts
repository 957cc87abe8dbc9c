import type { Db } from '../../store/db.ts'

// ready_conflict : the daemon's conflict threads, one row per colliding set of worktrees (`key`:
//   their sorted paths, one per line). `commits` are the lanes' commits when the thread opened,
//   so a thread someone closed by hand (closed_by_ready 0) stays closed for those commits and a
//   new commit opens a new one. Local to this machine: the threads themselves sync as records.
export const createReadyConflictTable = /*sql*/ `
  CREATE TABLE ready_conflict (
    key              TEXT PRIMARY KEY,
    thread_id        TEXT NOT NULL,
    commits          TEXT NOT NULL,
    closed_by_ready  INTEGER NOT NULL DEFAULT 0 CHECK (closed_by_ready IN (0, 1)),
    updated_at       INTEGER NOT NULL
  );`

export interface ReadyConflictRow {
  readonly key: string
  readonly threadId: string
  readonly commits: string
  readonly closedByReady: boolean
}

export function readReadyConflicts(db: Db): ReadyConflictRow[] {
  const rows = db
    .prepare('SELECT key, thread_id, commits, closed_by_ready FROM ready_conflict ORDER BY key')
    .all() as { key: string; thread_id: string; commits: string; closed_by_ready: number }[]
  return rows.map((row) => ({
    key: row.key,
    threadId: row.thread_id,
    commits: row.commits,
    closedByReady: row.closed_by_ready === 1,
  }))
}

/** The set's new thread (replaces the one before it). */
export function recordReadyConflict(db: Db, row: Omit<ReadyConflictRow, 'closedByReady'>, now: number): void {
  db.prepare(
    /*sql*/ `INSERT INTO ready_conflict (key, thread_id, commits, closed_by_ready, updated_at)
     VALUES (?, ?, ?, 0, ?)
     ON CONFLICT (key) DO UPDATE SET thread_id = excluded.thread_id, commits = excluded.commits,
       closed_by_ready = 0, updated_at = excluded.updated_at`,
  ).run(row.key, row.threadId, row.commits, now)
}

/** The daemon closed the set's thread: the collision is gone. */
export function markReadyConflictClosed(db: Db, key: string, now: number): void {
  db.prepare('UPDATE ready_conflict SET closed_by_ready = 1, updated_at = ? WHERE key = ?').run(now, key)
}
