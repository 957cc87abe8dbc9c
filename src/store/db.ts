/**
 * An open project database: Node's built-in SQLite (`node:sqlite`) behind the small API the store's
 * modules use (`connection.ts` implements it). Its own file, types only, so that the table modules,
 * which `database.ts` imports through `migrations.ts`, need not import `database.ts` back.
 *
 * Parameters bind as they always have here: positional values, or one object of named ones whose
 * keys carry no prefix (`{ id }` for `@id`, `:id` or `$id`), in any order; `undefined` binds NULL,
 * a boolean 1 or 0; keys the statement does not name are ignored, and a name the object lacks binds
 * NULL. Rows are plain objects; integers read as numbers.
 */
export interface Db {
  /** The database file, for messages. */
  readonly name: string
  /** Whether a transaction is open on this connection (SQLite's own state, not ours). */
  readonly inTransaction: boolean
  prepare(sql: string): Statement
  /** Runs one or more statements that take no parameters (DDL, BEGIN, PRAGMA …). */
  exec(sql: string): void
  /**
   * `PRAGMA <source>`; all rows, or with `simple` the first column of the first row. Only for
   * constant pragmas or integers the caller has checked: SQLite cannot bind a pragma's value.
   */
  pragma(source: string, options?: { readonly simple?: boolean }): unknown
  /**
   * `fn` as one transaction: BEGIN IMMEDIATE (BEGIN on a read-only connection; or `.deferred`
   * for a read snapshot, `.exclusive`) before it, COMMIT after it, ROLLBACK if it throws, and a
   * SAVEPOINT instead when a transaction is already open. `fn` must be synchronous.
   */
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>
  /** Closes the connection; closing a closed one does nothing. */
  close(): void
}

/** A prepared statement taking positional or named parameters. */
export interface Statement {
  /** The first row, or `undefined` if there is none. */
  get(...params: readonly unknown[]): unknown
  all(...params: readonly unknown[]): unknown[]
  iterate(...params: readonly unknown[]): IterableIterator<unknown>
  run(...params: readonly unknown[]): RunResult
  /** From now on (or, with `false`, no longer), each row is its first column's value. */
  pluck(on?: boolean): this
}

export interface RunResult {
  /** Rows inserted, updated or deleted by the statement itself. */
  readonly changes: number
  readonly lastInsertRowid: number | bigint
}

export type Transaction<F extends (...args: never[]) => unknown> = F & {
  readonly deferred: F
  /** BEGIN IMMEDIATE: the write lock is taken before the first read. */
  readonly immediate: F
  readonly exclusive: F
}
