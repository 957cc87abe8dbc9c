import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { isSqliteBusy } from './sqlite-error-code.ts'

/**
 * A statement that waited out its busy timeout throws SQLite's own error (SQLITE_BUSY,
 * SQLITE_LOCKED); opening translates its own (`translateSqliteError`). Entry points pass what
 * they catch through this, so a locked store is STORE_BUSY to a user or an agent, never INTERNAL.
 * Apart from database.ts so that the CLI can map errors without loading the SQLite driver.
 */
export function asStoreBusy(error: unknown): unknown {
  if (!isSqliteBusy(error)) return error
  return new SangamError(
    ErrorCode.StoreBusy,
    "the project's database is locked by another process past the wait; try again, or stop the other sangam process",
    undefined,
    { cause: error },
  )
}
