import type Database from 'better-sqlite3'

/**
 * An open project database. Its own file so that the table modules, which `database.ts` imports
 * through `migrations.ts`, need not import `database.ts` back.
 */
export type Db = Database.Database
/** A prepared statement taking positional or named parameters. */
export type Statement = Database.Statement<unknown[], unknown>
