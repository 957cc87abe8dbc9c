import type { Db } from '../../store/db.ts'

// overlap : the daemon's latest overlap picture, read by the edit hook (the file-overlap rule)
//           and by alerts. One row per (worktree, path, other worktree): `path` (relative to the
//           repository root) is changed in `worktree` (committed on its branch or uncommitted)
//           and also in `other_worktree`. `conflicted` = 1 when merging the two would conflict on
//           it, 0 when both touch it but merge cleanly. The daemon replaces the whole picture in
//           one transaction, so a reader never sees half of one; `computed_at` says how old it is.
export const createOverlapTable = /*sql*/ `
  CREATE TABLE overlap (
    worktree        TEXT NOT NULL,            -- absolute path of the worktree whose change this is
    path            TEXT NOT NULL,            -- repository-relative path
    other_worktree  TEXT NOT NULL,            -- absolute path of the worktree it collides with
    other_branch    TEXT,                     -- NULL when that worktree is detached
    conflicted      INTEGER NOT NULL CHECK (conflicted IN (0, 1)),
    computed_at     INTEGER NOT NULL,         -- ms epoch of the picture
    PRIMARY KEY (worktree, path, other_worktree)
  );`

export interface OverlapRow {
  readonly worktree: string
  readonly path: string
  readonly otherWorktree: string
  readonly otherBranch: string | null
  readonly conflicted: boolean
  readonly computedAt: number
}

const columns = 'worktree, path, other_worktree, other_branch, conflicted, computed_at'

/** The columns under the row's field names: SQLite answers with the aliases. */
const fields =
  'worktree, path, other_worktree AS otherWorktree, other_branch AS otherBranch, conflicted, computed_at AS computedAt'

type Row = Omit<OverlapRow, 'conflicted'> & { readonly conflicted: number }

function fromRow(row: Row): OverlapRow {
  return { ...row, conflicted: row.conflicted === 1 }
}

/** Replaces the whole picture with `rows` (the caller runs it inside one transaction). */
export function replaceOverlaps(db: Db, rows: readonly OverlapRow[]): void {
  db.prepare('DELETE FROM overlap').run()
  const insert = db.prepare(
    /*sql*/ `INSERT OR REPLACE INTO overlap (${columns})
     VALUES (@worktree, @path, @otherWorktree, @otherBranch, @conflicted, @computedAt)`,
  )
  for (const row of rows) insert.run({ ...row, conflicted: row.conflicted ? 1 : 0 })
}

/** The other worktrees whose work touches `path` as `worktree`'s does (the edit hook's question). */
export function overlapsAt(db: Db, worktree: string, path: string): OverlapRow[] {
  const rows = db
    .prepare(`SELECT ${fields} FROM overlap WHERE worktree = ? AND path = ? ORDER BY other_worktree`)
    .all(worktree, path) as Row[]
  return rows.map(fromRow)
}

/** The whole picture, by worktree and path. */
export function readOverlaps(db: Db): OverlapRow[] {
  const rows = db
    .prepare(`SELECT ${fields} FROM overlap ORDER BY worktree, path, other_worktree`)
    .all() as Row[]
  return rows.map(fromRow)
}

// overlap_look : when the overlap picture above was last made, and by whom: `daemon` (a round of
//   `sangam up`) or `read` (a read command that found no daemon running, D350). One row. Kept apart
//   from `overlap` because a picture with no collision has no row to carry its time, and "when did
//   anyone last look" is what a read says when it cannot look itself.
export const createOverlapLookTable = /*sql*/ `
  CREATE TABLE overlap_look (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    looked_at  INTEGER NOT NULL,            -- ms epoch of the round
    by         TEXT NOT NULL CHECK (by IN ('daemon', 'read'))
  );`

export const overlapLookers = ['daemon', 'read'] as const
export type OverlapLooker = (typeof overlapLookers)[number]

export interface OverlapLook {
  readonly lookedAt: number
  readonly by: OverlapLooker
}

/** The round that made the picture (the caller runs it in the picture's transaction). */
export function recordOverlapLook(db: Db, look: OverlapLook): void {
  db.prepare(
    /*sql*/ `INSERT INTO overlap_look (id, looked_at, by) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET looked_at = excluded.looked_at, by = excluded.by`,
  ).run(look.lookedAt, look.by)
}

/** The last round's time and kind, or null when no round ever ran here. */
export function readOverlapLook(db: Db): OverlapLook | null {
  const row = db.prepare('SELECT looked_at, by FROM overlap_look WHERE id = 1').get() as
    | { looked_at: number; by: string }
    | undefined
  if (row === undefined) return null
  return { lookedAt: row.looked_at, by: row.by === 'read' ? 'read' : 'daemon' }
}
