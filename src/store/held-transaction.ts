import type { Db } from './db.ts'

/**
 * A write transaction left open across a step that is not SQL: a hook reads what it will say and
 * moves its cursor in one, writes its answer to stdout, and only then commits. A process killed
 * before the commit leaves the store as it was (SQLite rolls the open transaction back), so what
 * the answer carried is carried again next time rather than lost.
 */
export interface HeldTransaction {
  commit(): void
  rollback(): void
}

/** BEGIN IMMEDIATE: the write lock is taken now, so the reads inside see what the commit moves past. */
export function holdTransaction(db: Db): HeldTransaction {
  db.exec('BEGIN IMMEDIATE')
  return {
    commit: () => {
      if (db.inTransaction) db.exec('COMMIT')
    },
    rollback: () => {
      if (db.inTransaction) db.exec('ROLLBACK')
    },
  }
}
