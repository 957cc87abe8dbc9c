import { type OpenOptions, openProjectStore, openStoreFile } from '../../store/database.ts'
import type { Db } from '../../store/db.ts'
import { projectSchema } from './project-schema.ts'

/**
 * Opens (creating and migrating to the project schema if needed) a project's database under
 * `$SANGAM_HOME` (see `openProjectStore`).
 */
export function openProjectDatabase(sangamHome: string, projectId: string, options: OpenOptions = {}): Db {
  return openProjectStore(sangamHome, projectId, projectSchema, options)
}

/** Opens a project database file directly (tests and benchmarks that want a file outside SANGAM_HOME). */
export function openDatabaseFile(file: string, options: OpenOptions = {}): Db {
  return openStoreFile(file, projectSchema, options)
}
