import { join } from 'node:path'
import { openDatabaseFile } from '../../src/project/store/project-database.ts'
import type { OpenOptions } from '../../src/store/database.ts'
import type { Db } from '../../src/store/db.ts'
import { tmpDir } from './tmp-git-repo.ts'

/**
 * A project store file in a temporary folder, for tests that open it more than once (two
 * processes' connections, a writer beside a reader). Disposing it closes every connection `open`
 * made, the last opened first, then removes the folder.
 */
export interface TmpStore extends AsyncDisposable {
  readonly file: string
  open(options?: OpenOptions): Db
}

export function tmpStore(name = 'sangam.db'): TmpStore {
  const dir = tmpDir()
  const file = join(dir.path, name)
  const opened: Db[] = []
  return {
    file,
    open(options) {
      const db = openDatabaseFile(file, options)
      opened.push(db)
      return db
    },
    async [Symbol.asyncDispose]() {
      try {
        for (const db of opened.reverse()) db.close()
      } finally {
        await dir[Symbol.asyncDispose]()
      }
    },
  }
}
