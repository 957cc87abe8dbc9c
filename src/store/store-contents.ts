import type { Db } from './db.ts'

/**
 * What a project's store holds that a person would miss: the counts `doctor` and `init` show for a
 * store this checkout is not using, and what decides which of two stores an unrecorded checkout
 * adopts (services/project-identity.ts). Presence, settings and caches are left out: a store holding
 * only those was opened, not used.
 */
export interface StoreContents {
  /** Captured transcript events and notes. */
  readonly events: number
  /** Leases live now. */
  readonly liveLeases: number
  /** Lease grants, releases and collisions ever logged. */
  readonly leaseLog: number
  readonly messages: number
  readonly lanes: number
}

/** One statement per count, run only when its table exists (a store of an older schema lacks some). */
const counts: Readonly<Record<keyof StoreContents, { table: string; sql: string }>> = {
  events: { table: 'event', sql: 'SELECT count(*) AS n FROM event' },
  liveLeases: { table: 'lease', sql: 'SELECT count(*) AS n FROM lease WHERE expires_at > @now' },
  leaseLog: { table: 'lease_log', sql: 'SELECT count(*) AS n FROM lease_log' },
  messages: { table: 'room_message', sql: 'SELECT count(*) AS n FROM room_message' },
  lanes: { table: 'lane', sql: 'SELECT count(*) AS n FROM lane' },
}

export function readStoreContents(db: Db, now: number): StoreContents {
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (row) => row.name,
    ),
  )
  const count = (key: keyof StoreContents): number => {
    const { table, sql } = counts[key]
    if (!tables.has(table)) return 0
    const statement = db.prepare(sql)
    const row = (key === 'liveLeases' ? statement.get({ now }) : statement.get()) as { n: number }
    return row.n
  }
  return {
    events: count('events'),
    liveLeases: count('liveLeases'),
    leaseLog: count('leaseLog'),
    messages: count('messages'),
    lanes: count('lanes'),
  }
}

/** True when the store holds anything of `StoreContents`. */
export function holdsWork(contents: StoreContents): boolean {
  return Object.values(contents).some((count) => count > 0)
}
