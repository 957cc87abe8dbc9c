import { openDatabaseFile } from '../../src/project/store/project-database.ts'
import { type EventSpec, EventStore } from './memory-fixture.ts'
import { isolatedEnv, runCliJson } from './run-cli.ts'
import { type TmpDir, type TmpRepo, tmpDir, tmpGitRepo } from './tmp-git-repo.ts'

/** A real repository, initialised by the real CLI under its own HOME, whose replica holds events. */
export interface RecallProject extends AsyncDisposable {
  readonly home: TmpDir
  readonly repo: TmpRepo
  readonly env: Record<string, string | undefined>
  readonly database: string
  /** Stores events in the project's replica (as capture would) and returns their ids. */
  add(...specs: EventSpec[]): string[]
}

export async function recallProject(
  extraEnv: Record<string, string | undefined> = {},
): Promise<RecallProject> {
  const home = tmpDir()
  const repo = tmpGitRepo()
  const env = isolatedEnv(home.path, extraEnv)
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  return {
    home,
    repo,
    env,
    database,
    add(...specs) {
      const db = openDatabaseFile(database)
      try {
        return new EventStore(db).add(...specs)
      } finally {
        db.close()
      }
    },
    [Symbol.asyncDispose]: async () => {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}
