import type { Clock } from '../shared/clock.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import type { Db } from './db.ts'

/** One numbered step of a schema: its SQL runs once, inside one IMMEDIATE transaction. */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

/**
 * A database's schema: its numbered migrations, in the order they were released. The store knows
 * no feature's tables; whoever opens a database hands it the schema (the project's is assembled in
 * `project/store/project-schema.ts` from each feature's `store/<feature>-schema.ts`). The schema
 * version is `PRAGMA user_version`; `schema_migration` records when each step ran.
 */
export type Schema = readonly Migration[]

/** The version a database has once every step of `schema` ran. */
export function schemaVersion(schema: Schema): number {
  return schema.reduce((max, step) => Math.max(max, step.version), 0)
}

const createMigrationTable = /*sql*/ `
  CREATE TABLE IF NOT EXISTS schema_migration (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL   -- ms epoch
  );`

/** Brings `db` up to `schema`'s version; `clock` stamps each step's `applied_at`. */
export function migrate(db: Db, schema: Schema, clock: Clock): void {
  const latest = schemaVersion(schema)
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > latest) {
    throw new SangamError(
      ErrorCode.StoreIncompatible,
      `this database has schema version ${current}, newer than this sangam understands (${latest}); upgrade sangam`,
    )
  }
  if (current === latest) return
  const step = db.transaction((migration: Migration) => {
    // Re-read inside the write lock: another process may have migrated while we waited.
    const now = db.pragma('user_version', { simple: true }) as number
    if (now >= migration.version) return
    db.exec(createMigrationTable)
    db.exec(migration.sql)
    db.prepare('INSERT INTO schema_migration (version, name, applied_at) VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      clock.now(),
    )
    db.pragma(`user_version = ${migration.version}`)
  })
  for (const migration of schema) {
    if (migration.version > current) step.immediate(migration)
  }
}
