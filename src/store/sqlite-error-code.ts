/**
 * SQLite's primary result codes the store tells apart, by number (sqlite3.h). node:sqlite throws
 * an Error with `code: 'ERR_SQLITE_ERROR'` and SQLite's extended result code in `errcode`
 * (SQLITE_BUSY_SNAPSHOT is 517: its low byte is SQLITE_BUSY's 5).
 */
const names: Readonly<Record<number, string>> = {
  3: 'SQLITE_PERM',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
}

/**
 * The primary result code of an error SQLite raised (`SQLITE_BUSY`, …; `SQLITE_<n>` for one not
 * named above), or null for any other error. Without the driver: the CLI maps errors before (and
 * without) loading SQLite.
 */
export function sqliteErrorCode(error: unknown): string | null {
  const errcode = (error as { errcode?: unknown } | null)?.errcode
  if (typeof errcode !== 'number' || (error as { code?: unknown }).code !== 'ERR_SQLITE_ERROR') return null
  const primary = errcode & 0xff
  return names[primary] ?? `SQLITE_${primary}`
}

/** SQLITE_BUSY or SQLITE_LOCKED: another connection held the lock past the busy timeout. */
export function isSqliteBusy(error: unknown): boolean {
  const code = sqliteErrorCode(error)
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED'
}
