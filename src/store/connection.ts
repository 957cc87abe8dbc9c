import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite'
import type { Db, RunResult, Statement, Transaction } from './db.ts'
import { nodeSqlite } from './node-sqlite.ts'

export interface ConnectionOptions {
  readonly readOnly?: boolean | undefined
  /** SQLite's busy timeout: how long a statement waits for another connection's lock. */
  readonly timeoutMs: number
}

/** Opens `file` with Node's built-in SQLite; SQLite's own errors pass through (`database.ts` maps them). */
export function openConnection(file: string, options: ConnectionOptions): Db {
  const { DatabaseSync } = nodeSqlite()
  const db = new DatabaseSync(file, {
    readOnly: options.readOnly === true,
    timeout: Math.trunc(options.timeoutMs),
    // SQLite's defaults, which node:sqlite changes: the schema relies on neither way, and the
    // store turns foreign keys on itself where it opens for writing.
    enableForeignKeyConstraints: false,
  })
  try {
    // 16 MB of page cache (in KiB, as SQLite takes it), what the store had under better-sqlite3,
    // built with SQLITE_DEFAULT_CACHE_SIZE=-16000. node:sqlite keeps SQLite's 2 MB, which a search
    // outgrows: FTS5 reads the same index pages again and again, each through a system call, and a
    // query cost up to 1.5 times the CPU (docs/performance.md, D390). Pages are taken as they are
    // read, so a short-lived connection (a hook) holds no more than it read.
    db.exec('PRAGMA cache_size = -16000')
  } catch (error) {
    db.close()
    throw error
  }
  return connectionOver(db, file, { readOnly: options.readOnly === true })
}

/** The store's `Db` over a `DatabaseSync` the caller opened (a test watching it through node:sqlite's own API). */
export function connectionOver(
  db: DatabaseSync,
  name: string,
  options: { readonly readOnly?: boolean } = {},
): Db {
  return new Connection(db, name, options.readOnly === true)
}

/**
 * The store's `Db` over a `DatabaseSync`. What it adds is only what the store's modules need and
 * node:sqlite does not do itself: transactions as functions (nested ones as savepoints), `pragma`,
 * and binding (`undefined` as NULL, named parameters anywhere in the arguments, as the store has
 * always written them, the same on every Node line). Statements return arrays and rows are built here with the column names, which
 * also makes them plain objects, and is faster than node:sqlite's own objects (bench/store.ts).
 */
class Connection implements Db {
  readonly #db: DatabaseSync
  readonly name: string
  readonly #readOnly: boolean
  #control: ControlStatements | undefined

  constructor(db: DatabaseSync, name: string, readOnly: boolean) {
    this.#db = db
    this.name = name
    this.#readOnly = readOnly
  }

  get inTransaction(): boolean {
    return this.#db.isOpen && this.#db.isTransaction
  }

  prepare(sql: string): Statement {
    return new PreparedStatement(this.#db.prepare(sql))
  }

  exec(sql: string): void {
    this.#db.exec(sql)
  }

  pragma(source: string, options: { readonly simple?: boolean } = {}): unknown {
    const statement = this.#db.prepare(`PRAGMA ${source}`)
    if (options.simple !== true) return statement.all()
    statement.setReturnArrays(true)
    return (statement.get() as unknown[] | undefined)?.[0]
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    const as = (begin: keyof ControlStatements): F =>
      ((...args: Parameters<F>) => this.#inTransaction(begin, fn, args)) as unknown as F
    // A writer's transaction takes the write lock first. A deferred one that reads and then writes
    // fails at once with SQLITE_BUSY, never waiting out the busy timeout, when another process
    // wrote in between (its snapshot is stale): `option-set` failed so beside a hook's presence
    // write. A read-only connection cannot take that lock, and has no write to protect.
    return Object.assign(as(this.#readOnly ? 'begin' : 'beginImmediate'), {
      deferred: as('begin'),
      immediate: as('beginImmediate'),
      exclusive: as('beginExclusive'),
    })
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close()
  }

  #inTransaction<F extends (...args: never[]) => unknown>(
    begin: keyof ControlStatements,
    fn: F,
    args: Parameters<F>,
  ): ReturnType<F> {
    const control = this.#controlStatements()
    const nested = this.#db.isTransaction
    ;(nested ? control.savepoint : control[begin]).run()
    try {
      const result = fn(...args) as ReturnType<F>
      if (typeof (result as { then?: unknown } | null)?.then === 'function')
        throw new TypeError('a transaction function cannot return a promise')
      ;(nested ? control.release : control.commit).run()
      return result
    } catch (error) {
      // SQLite may have rolled back already (a failed COMMIT, SQLITE_FULL): then there is nothing to undo.
      if (this.#db.isTransaction) {
        if (nested) {
          control.rollbackTo.run()
          control.release.run()
        } else control.rollback.run()
      }
      throw error
    }
  }

  #controlStatements(): ControlStatements {
    this.#control ??= {
      begin: this.#db.prepare('BEGIN'),
      beginImmediate: this.#db.prepare('BEGIN IMMEDIATE'),
      beginExclusive: this.#db.prepare('BEGIN EXCLUSIVE'),
      commit: this.#db.prepare('COMMIT'),
      rollback: this.#db.prepare('ROLLBACK'),
      savepoint: this.#db.prepare('SAVEPOINT sangam_nested'),
      release: this.#db.prepare('RELEASE sangam_nested'),
      rollbackTo: this.#db.prepare('ROLLBACK TO sangam_nested'),
    }
    return this.#control
  }
}

interface ControlStatements {
  readonly begin: StatementSync
  readonly beginImmediate: StatementSync
  readonly beginExclusive: StatementSync
  readonly commit: StatementSync
  readonly rollback: StatementSync
  readonly savepoint: StatementSync
  readonly release: StatementSync
  readonly rollbackTo: StatementSync
}

type Bound = [named: Record<string, SQLInputValue> | undefined, positional: SQLInputValue[]]

class PreparedStatement implements Statement {
  readonly #statement: StatementSync
  #columns: string[] | undefined
  #pluck = false

  constructor(statement: StatementSync) {
    statement.setReturnArrays(true)
    statement.setAllowUnknownNamedParameters(true)
    this.#statement = statement
  }

  get(...params: readonly unknown[]): unknown {
    const values = this.#call('get', params) as unknown[] | undefined
    return values === undefined ? undefined : this.#row(values)
  }

  all(...params: readonly unknown[]): unknown[] {
    const rows = this.#call('all', params) as unknown[][]
    const out = new Array<unknown>(rows.length)
    for (let i = 0; i < rows.length; i++) out[i] = this.#row(rows[i] as unknown[])
    return out
  }

  *iterate(...params: readonly unknown[]): IterableIterator<unknown> {
    for (const values of this.#call('iterate', params) as Iterable<unknown[]>) yield this.#row(values)
  }

  run(...params: readonly unknown[]): RunResult {
    return this.#call('run', params) as RunResult
  }

  pluck(on = true): this {
    this.#pluck = on
    return this
  }

  #call(method: 'get' | 'all' | 'iterate' | 'run', params: readonly unknown[]): unknown {
    const statement = this.#statement
    if (params.length === 0) return statement[method]()
    const [named, positional] = bind(params)
    return named === undefined ? statement[method](...positional) : statement[method](named, ...positional)
  }

  /**
   * The names are read once: `columns()` costs more than the row. A statement SQLite re-prepared
   * after a schema change (`SELECT *` after a column was added) is noticed by its width.
   */
  #row(values: unknown[]): unknown {
    if (this.#pluck) return values[0]
    let columns = this.#columns
    if (columns === undefined || columns.length !== values.length) {
      columns = this.#statement.columns().map((column) => column.name)
      this.#columns = columns
    }
    const row: Record<string, unknown> = {}
    for (let i = 0; i < columns.length; i++) row[columns[i] as string] = values[i]
    return row
  }
}

/**
 * Splits the arguments into node:sqlite's (named object first, then positional). `undefined` binds
 * NULL and a boolean 1 or 0 on every Node line (node:sqlite 22 refuses both, 24 only `undefined`).
 */
function bind(params: readonly unknown[]): Bound {
  let named: Record<string, SQLInputValue> | undefined
  const positional: SQLInputValue[] = []
  for (const param of params) {
    if (Array.isArray(param)) for (const value of param) positional.push(bindable(value))
    else if (isNamedParameters(param)) {
      if (named !== undefined) throw new TypeError('a statement takes at most one object of named parameters')
      named = bindableValues(param)
    } else positional.push(bindable(param))
  }
  return [named, positional]
}

function isNamedParameters(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)
}

/** What node:sqlite cannot bind at all (an object) is its own to refuse. */
function bindable(value: unknown): SQLInputValue {
  if (value === undefined) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  return value as SQLInputValue
}

/** The object itself unless one of its values needs `bindable`. */
function bindableValues(named: Record<string, unknown>): Record<string, SQLInputValue> {
  for (const key in named) {
    const value = named[key]
    if (value !== undefined && typeof value !== 'boolean') continue
    const copy: Record<string, SQLInputValue> = {}
    for (const name in named) copy[name] = bindable(named[name])
    return copy
  }
  return named as Record<string, SQLInputValue>
}
