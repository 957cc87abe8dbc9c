import type { Db } from '../../store/db.ts'

// Where each reader's last brief left off, so the next brief says what landed since.
// reader : an actor key ('human:<name>' or '<vendor>:<session id>').
export const createBriefCursorTable = /*sql*/ `
  CREATE TABLE brief_cursor (
    reader      TEXT PRIMARY KEY,
    at          INTEGER NOT NULL,   -- ms epoch of the last brief
    head_commit TEXT,               -- HEAD of the reader's branch then
    main_commit TEXT                -- main (or the default branch) then
  );`

export interface BriefCursor {
  readonly reader: string
  readonly at: number
  readonly headCommit: string | null
  readonly mainCommit: string | null
}

export function readBriefCursor(db: Db, reader: string): BriefCursor | null {
  const row = db
    .prepare(
      'SELECT reader, at, head_commit AS headCommit, main_commit AS mainCommit FROM brief_cursor WHERE reader = ?',
    )
    .get(reader) as BriefCursor | undefined
  return row ?? null
}

export function writeBriefCursor(db: Db, cursor: BriefCursor): void {
  db.prepare(
    /*sql*/ `INSERT INTO brief_cursor (reader, at, head_commit, main_commit) VALUES (@reader, @at, @headCommit, @mainCommit)
             ON CONFLICT (reader) DO UPDATE SET at = excluded.at, head_commit = excluded.head_commit,
               main_commit = excluded.main_commit`,
  ).run(cursor)
}
