import type { Db } from '../../store/db.ts'
import type { MainRecord } from '../core/main-record.ts'

// main_record : the main sangam last moved on this machine (lanes/core/main-record.ts), one row
//               once a lane command has looked. moving_from is set while sangam moves main (main
//               may still be there); how is moved, adopted or accepted; by is who accepted it.
export const createMainRecordTable = /*sql*/ `
  CREATE TABLE main_record (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    branch       TEXT NOT NULL,
    commit_sha   TEXT NOT NULL,
    moving_from  TEXT,
    how          TEXT NOT NULL CHECK (how IN ('moved', 'adopted', 'accepted')),
    by           TEXT,
    at           INTEGER NOT NULL
  );`

interface Row {
  branch: string
  commit_sha: string
  moving_from: string | null
  how: MainRecord['how']
  by: string | null
  at: number
}

/** The record, or null: none yet, or a store older than the table (a hook reads without migrating). */
export function readMainRecord(db: Db): MainRecord | null {
  if (!hasTable(db, 'main_record')) return null
  const row = db
    .prepare('SELECT branch, commit_sha, moving_from, how, by, at FROM main_record WHERE id = 1')
    .get() as Row | undefined
  if (row === undefined) return null
  return {
    branch: row.branch,
    commit: row.commit_sha,
    movingFrom: row.moving_from,
    how: row.how,
    by: row.by,
    at: row.at,
  }
}

export function writeMainRecord(db: Db, record: MainRecord): void {
  db.prepare(
    `INSERT INTO main_record (id, branch, commit_sha, moving_from, how, by, at) VALUES (1, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET branch = excluded.branch, commit_sha = excluded.commit_sha,
       moving_from = excluded.moving_from, how = excluded.how, by = excluded.by, at = excluded.at`,
  ).run(record.branch, record.commit, record.movingFrom, record.how, record.by, record.at)
}

export function hasTable(db: Db, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined
}
