import type { Db } from '../../store/db.ts'
import type { WorktreeChange, WorktreeStatePayload } from '../protocol/worktree.ts'

// worktree_state : the latest state of every worktree the room knows, this machine's own (as the
//                  daemon last published them) and (through room.worktree records) every other
//                  machine's. One row per machine + path. `changes` is the payload's JSON list of
//                  changed paths and base line ranges (paths and numbers only, never contents);
//                  `digest` hashes the published state so an identical one is never queued
//                  again; `change` counts the row's records (record id worktree:<machine>:<path>:<n>).
export const createWorktreeStateTable = /*sql*/ `
  CREATE TABLE worktree_state (
    machine         TEXT NOT NULL,
    path            TEXT NOT NULL,            -- absolute path on that machine
    status          TEXT NOT NULL CHECK (status IN ('present', 'missing')),
    target          TEXT,
    branch          TEXT,
    head            TEXT,
    base            TEXT,                     -- merge base with the main branch
    last_commit_at  INTEGER,                  -- ms epoch of HEAD's commit
    uncommitted     INTEGER,
    changes         TEXT NOT NULL,            -- JSON [{ path, ranges }]
    truncated       INTEGER NOT NULL CHECK (truncated IN (0, 1)),
    updated_at      INTEGER NOT NULL,
    change          INTEGER NOT NULL,
    digest          TEXT NOT NULL,
    PRIMARY KEY (machine, path)
  );`

export interface WorktreeStateRow extends WorktreeStatePayload {
  readonly change: number
  readonly digest: string
}

const columns =
  'machine, path, status, target, branch, head, base, last_commit_at, uncommitted, changes, truncated, updated_at, change, digest'

/** The columns under the row's field names: SQLite answers with the aliases. */
const fields =
  'machine, path, status, target, branch, head, base, last_commit_at AS lastCommitAt, uncommitted, changes, truncated, updated_at AS updatedAt, change, digest'

type Row = Omit<WorktreeStateRow, 'changes' | 'truncated'> & {
  readonly changes: string
  readonly truncated: number
}

function fromRow(row: Row): WorktreeStateRow {
  return { ...row, changes: JSON.parse(row.changes) as WorktreeChange[], truncated: row.truncated === 1 }
}

/** Every worktree state, by machine and path. */
export function readWorktreeStates(db: Db): WorktreeStateRow[] {
  const rows = db.prepare(`SELECT ${fields} FROM worktree_state ORDER BY machine, path`).all() as Row[]
  return rows.map(fromRow)
}

/** Where a worktree is and what it is called, without its change list. */
export interface WorktreePlace {
  readonly machine: string
  readonly path: string
  readonly status: 'present' | 'missing'
  readonly target: string | null
  readonly branch: string | null
  readonly lastCommitAt: number | null
  readonly uncommitted: number | null
}

/**
 * Every worktree state without its change list, by machine and path: the directory (read by
 * every room command and by the hooks) and `targets` need these columns only, not the change
 * lists of up to 500 paths each.
 */
export function readWorktreePlaces(db: Db): WorktreePlace[] {
  return db
    .prepare(
      /*sql*/ `SELECT machine, path, status, target, branch, last_commit_at AS lastCommitAt, uncommitted
               FROM worktree_state ORDER BY machine, path`,
    )
    .all() as WorktreePlace[]
}

/** One machine's worktree states, by path. */
export function readMachineWorktreeStates(db: Db, machine: string): WorktreeStateRow[] {
  const rows = db
    .prepare(`SELECT ${fields} FROM worktree_state WHERE machine = ? ORDER BY path`)
    .all(machine) as Row[]
  return rows.map(fromRow)
}

export function readWorktreeState(db: Db, machine: string, path: string): WorktreeStateRow | null {
  const row = db
    .prepare(`SELECT ${fields} FROM worktree_state WHERE machine = ? AND path = ?`)
    .get(machine, path) as Row | undefined
  return row === undefined ? null : fromRow(row)
}

/** Writes a row as given (this machine's new state, or a record that won). */
export function writeWorktreeState(db: Db, row: WorktreeStateRow): void {
  db.prepare(
    /*sql*/ `INSERT INTO worktree_state (${columns}) VALUES (@machine, @path, @status, @target, @branch,
       @head, @base, @lastCommitAt, @uncommitted, @changes, @truncated, @updatedAt, @change, @digest)
     ON CONFLICT (machine, path) DO UPDATE SET status = excluded.status, target = excluded.target,
       branch = excluded.branch, head = excluded.head, base = excluded.base,
       last_commit_at = excluded.last_commit_at, uncommitted = excluded.uncommitted,
       changes = excluded.changes, truncated = excluded.truncated, updated_at = excluded.updated_at,
       change = excluded.change, digest = excluded.digest`,
  ).run({ ...row, changes: JSON.stringify(row.changes), truncated: row.truncated ? 1 : 0 })
}

/**
 * Applies another replica's worktree record: a newer state wins (by time, then change number), so
 * records arriving out of order or twice leave the latest. True when it changed.
 */
export function applyWorktreeState(db: Db, row: WorktreeStateRow): boolean {
  const current = readWorktreeState(db, row.machine, row.path)
  if (current !== null && !isNewer(row, current)) return false
  writeWorktreeState(db, row)
  return true
}

function isNewer(incoming: WorktreeStateRow, current: WorktreeStateRow): boolean {
  if (incoming.updatedAt !== current.updatedAt) return incoming.updatedAt > current.updatedAt
  return incoming.change > current.change
}
