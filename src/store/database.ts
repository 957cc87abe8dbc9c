import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { databaseFileIn, projectDir, projectsDir } from '../config/data-paths.ts'
import { type Clock, systemClock } from '../shared/clock.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { openConnection } from './connection.ts'
import type { Db } from './db.ts'
import { migrate, type Schema } from './migrations.ts'
import { sqliteErrorCode } from './sqlite-error-code.ts'

/** The store's own modules import these from `db.ts`; everyone else may take them from here. */
export type { Db, RunResult, Statement } from './db.ts'

export interface OpenOptions {
  /** Open without writing anything: no migrations, no directory creation. Used by hooks. */
  readonly readonly?: boolean | undefined
  /** How long a writer waits for another writer's lock before STORE_BUSY (busy_timeout). */
  readonly busyTimeoutMs?: number | undefined
  /** Stamps the migrations this open applies; the system clock unless a test gives its own. */
  readonly clock?: Clock | undefined
  /**
   * How long opening waits for the lock that switching to WAL and migrating take (default
   * `setupBusyTimeoutMs`). A read command passes its own small budget, to answer STORE_BUSY soon.
   */
  readonly setupTimeoutMs?: number | undefined
}

/**
 * Opens (creating and migrating to `schema` if needed) a project's database. Directories are 0700
 * and files 0600 because transcripts hold private conversations, tool output and, before scrubbing,
 * secrets. The project's own schema is bound in `project/store/project-database.ts`.
 */
export function openProjectStore(
  sangamHome: string,
  projectId: string,
  schema: Schema,
  options: OpenOptions = {},
): Db {
  const dir = projectDir(sangamHome, projectId)
  const file = databaseFileIn(dir)
  if (options.readonly) return openReadonly(file, options)
  ensurePrivateDir(sangamHome)
  ensurePrivateDir(projectsDir(sangamHome))
  ensurePrivateDir(dir)
  return openWritable(file, schema, options)
}

/** Opens a database file directly, migrating it to `schema` unless it is opened read-only. */
export function openStoreFile(file: string, schema: Schema, options: OpenOptions = {}): Db {
  return options.readonly ? openReadonly(file, options) : openWritable(file, schema, options)
}

/** Opens a database file to read it only: nothing is created or migrated, so no schema is needed. */
export function openReadonlyStore(file: string, options: Pick<OpenOptions, 'busyTimeoutMs'> = {}): Db {
  return openReadonly(file, options)
}

/**
 * Switching a new file to WAL and migrating take the write lock once per process start; when many
 * processes start together on a database that needs a step (200 `sangam claim`s), they queue for it
 * far longer than an ordinary write waits. Setup gets this patience; the caller's timeout applies after.
 */
const setupBusyTimeoutMs = 60_000

function openWritable(file: string, schema: Schema, options: OpenOptions): Db {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000
  const setupTimeoutMs = options.setupTimeoutMs ?? Math.max(busyTimeoutMs, setupBusyTimeoutMs)
  const db = withOpenErrors(file, () => openConnection(file, { timeoutMs: setupTimeoutMs }))
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    migrate(db, schema, options.clock ?? systemClock)
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`)
  } catch (error) {
    db.close()
    throw translateSqliteError(error, file)
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600)
  }
  return db
}

function openReadonly(file: string, options: Pick<OpenOptions, 'busyTimeoutMs'>): Db {
  const db = withOpenErrors(file, () =>
    openConnection(file, { readOnly: true, timeoutMs: options.busyTimeoutMs ?? 1000 }),
  )
  db.pragma('query_only = ON')
  return db
}

function ensurePrivateDir(dir: string): void {
  try {
    if (!existsSync(dir)) mkdirEachLevel(dir)
    else if (!statSync(dir).isDirectory()) throw new Error('it exists and is not a directory')
    if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700)
  } catch (error) {
    throw new SangamError(
      ErrorCode.DataDirUnusable,
      `cannot use data directory ${dir}: ${(error as Error).message}. Set SANGAM_HOME to a writable directory.`,
      { dir },
      { cause: error },
    )
  }
}

/**
 * Creates `dir` and any missing parents one level at a time. Node 20's `mkdirSync(…, { recursive })`
 * spins forever under /proc, so the walk is done here, where every failure is a plain error.
 */
function mkdirEachLevel(dir: string): void {
  const missing: string[] = []
  for (let path = dir; !existsSync(path); path = dirname(path)) {
    if (dirname(path) === path) break
    missing.unshift(path)
  }
  for (const path of missing) mkdirSync(path, { mode: 0o700 })
}

function withOpenErrors(file: string, open: () => Db): Db {
  try {
    return open()
  } catch (error) {
    throw translateSqliteError(error, file)
  }
}

/** Maps SQLite's failure codes onto our closed set, with a message a user can act on. */
export function translateSqliteError(error: unknown, file: string): unknown {
  if (error instanceof SangamError) return error
  // Extended result codes (SQLITE_IOERR_SHORT_READ, SQLITE_CANTOPEN_ISDIR, SQLITE_BUSY_SNAPSHOT…)
  // share their primary code's meaning here.
  const code = sqliteErrorCode(error)
  const message = (error as Error).message ?? String(error)
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new SangamError(
      ErrorCode.StoreBusy,
      `the database ${file} is locked by another writer; try again, or stop the other sangam process`,
      { file },
      { cause: error },
    )
  }
  if (
    code === 'SQLITE_CANTOPEN' ||
    code === 'SQLITE_READONLY' ||
    code === 'SQLITE_PERM' ||
    code === 'SQLITE_IOERR'
  ) {
    return new SangamError(
      ErrorCode.DataDirUnusable,
      `cannot open ${file} (${message}). Check that SANGAM_HOME points to a writable directory.`,
      { file },
      { cause: error },
    )
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new SangamError(
      ErrorCode.StoreIncompatible,
      `${file} is not a usable sangam database: ${message}`,
      { file },
      {
        cause: error,
      },
    )
  }
  return error
}
