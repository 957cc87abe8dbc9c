import type { Db, Statement } from './db.ts'

const caches = new WeakMap<Db, Map<string, Statement>>()

/**
 * The connection's prepared statement for `sql`, prepared on first use. SQLite prepares anew on
 * every `db.prepare`, which costs more than running a one-row query; functions called
 * once per transcript file (a backfill prepares hundreds) take their statements from here. Only
 * for constant SQL: the cache keeps every distinct string for the connection's life. SQLite
 * re-prepares a cached statement by itself after a schema change.
 */
export function cachedStatement(db: Db, sql: string): Statement {
  let cache = caches.get(db)
  if (cache === undefined) {
    cache = new Map()
    caches.set(db, cache)
  }
  let statement = cache.get(sql)
  if (statement === undefined) {
    statement = db.prepare(sql)
    cache.set(sql, statement)
  }
  return statement
}
