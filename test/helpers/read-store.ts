import { openDatabaseFile } from '../../src/project/store/project-database.ts'

/** A read-only connection to a project's store, as `readStore` lends it. */
export type StoreReader = ReturnType<typeof openDatabaseFile>

/** Runs `query` on a read-only connection to the store at `database`, closed after, whatever happens. */
export function readStore<T>(database: string, query: (db: StoreReader) => T): T {
  const db = openDatabaseFile(database, { readonly: true })
  try {
    return query(db)
  } finally {
    db.close()
  }
}
