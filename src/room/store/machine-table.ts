import type { Db } from '../../store/db.ts'
import type { MachineNamePayload } from '../protocol/machine.ts'

// machine : the readable name of every machine the room knows, this one's (as it last told the
//           team) and (through room.machine records) every other's. One row per machine id;
//           `change` counts the machine's name records (record id machine:<id>:<n>).
export const createMachineTable = /*sql*/ `
  CREATE TABLE machine (
    id          TEXT PRIMARY KEY,         -- m_ + 16 hex
    name        TEXT NOT NULL,
    updated_at  INTEGER NOT NULL,         -- ms epoch of the change
    change      INTEGER NOT NULL
  );`

/**
 * The person at each machine (the actor of its name record): a teammate is in the room, and can be
 * tagged, from the moment their daemon first tells the team its machine's name, not only once they
 * chat or run an agent session. Null for rows written before it was kept.
 */
export const addMachineHuman = /*sql*/ `ALTER TABLE machine ADD COLUMN human TEXT;`

export interface MachineRow extends MachineNamePayload {
  readonly change: number
  /** The person who named it (its name record's actor); null when not known. */
  readonly human: string | null
}

interface Row {
  id: string
  name: string
  updated_at: number
  change: number
  human: string | null
}

function fromRow(row: Row): MachineRow {
  return { machine: row.id, name: row.name, updatedAt: row.updated_at, change: row.change, human: row.human }
}

/** Every machine's name, by id. */
export function readMachines(db: Db): MachineRow[] {
  const rows = db
    .prepare('SELECT id, name, updated_at, change, human FROM machine ORDER BY id')
    .all() as Row[]
  return rows.map(fromRow)
}

export function readMachine(db: Db, id: string): MachineRow | null {
  const row = db.prepare('SELECT id, name, updated_at, change, human FROM machine WHERE id = ?').get(id) as
    | Row
    | undefined
  return row === undefined ? null : fromRow(row)
}

/** Writes a row as given (this machine's new name, or a record that won). */
export function writeMachine(db: Db, row: MachineRow): void {
  db.prepare(
    /*sql*/ `INSERT INTO machine (id, name, updated_at, change, human)
     VALUES (@machine, @name, @updatedAt, @change, @human)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at,
       change = excluded.change, human = coalesce(excluded.human, machine.human)`,
  ).run(row)
}

/**
 * Applies another replica's name record: a newer change wins (by time, then change number), so
 * records arriving out of order or twice leave the latest. True when it changed.
 */
export function applyMachine(db: Db, row: MachineRow): boolean {
  const current = readMachine(db, row.machine)
  if (current !== null && !isNewer(row, current)) return false
  writeMachine(db, row)
  return true
}

function isNewer(incoming: MachineRow, current: MachineRow): boolean {
  if (incoming.updatedAt !== current.updatedAt) return incoming.updatedAt > current.updatedAt
  return incoming.change > current.change
}
