import type { Db } from '../../store/db.ts'

// option_change : when each team option (a house rule's rung, a room setting) got the value it has
//                 in `setting`, and by which record, so a room.option record from another machine
//                 replaces it only when newer (by set_at, then record id). The values themselves stay
//                 in `setting`, where every reader of the option groups already looks.
export const createOptionChangeTable = /*sql*/ `
  CREATE TABLE option_change (
    name       TEXT PRIMARY KEY,             -- full option name: room.file-overlap
    set_at     INTEGER NOT NULL,             -- ms epoch of the change
    record_id  TEXT NOT NULL                 -- the room.option record that made it
  );`

export interface OptionChange {
  readonly name: string
  readonly setAt: number
  readonly recordId: string
}

export function readOptionChange(db: Db, name: string): OptionChange | null {
  const row = db.prepare('SELECT name, set_at, record_id FROM option_change WHERE name = ?').get(name) as
    | { name: string; set_at: number; record_id: string }
    | undefined
  return row === undefined ? null : { name: row.name, setAt: row.set_at, recordId: row.record_id }
}

export function writeOptionChange(db: Db, change: OptionChange): void {
  db.prepare(
    /*sql*/ `INSERT INTO option_change (name, set_at, record_id) VALUES (@name, @setAt, @recordId)
     ON CONFLICT (name) DO UPDATE SET set_at = excluded.set_at, record_id = excluded.record_id`,
  ).run(change)
}

/** Whether `incoming` replaces `current`: a later change, or at one time the larger record id. */
export function isNewerOptionChange(incoming: OptionChange, current: OptionChange | null): boolean {
  if (current === null) return true
  if (incoming.setAt !== current.setAt) return incoming.setAt > current.setAt
  return incoming.recordId > current.recordId
}
