import type { Db } from './db.ts'

// project : the single row describing which repository this database belongs to.
// setting : project settings (JSON values), e.g. whether tool output is shared, lease rungs.
export const createProjectTable = /*sql*/ `
  CREATE TABLE project (
    lock            INTEGER PRIMARY KEY DEFAULT 1 CHECK (lock = 1),
    id              TEXT NOT NULL,      -- prj_…
    root            TEXT NOT NULL,      -- worktree sangam init ran in
    remote          TEXT,               -- normalised remote, credentials stripped
    identity_source TEXT NOT NULL,      -- 'remote' | 'common-dir' | 'recorded' (git/repository.ts)
    common_dir      TEXT NOT NULL,
    created_at      INTEGER NOT NULL    -- ms epoch
  );
  CREATE TABLE setting (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL                 -- JSON
  );`

export interface ProjectRow {
  readonly id: string
  readonly root: string
  readonly remote: string | null
  readonly identitySource: 'remote' | 'common-dir' | 'recorded'
  readonly commonDir: string
  readonly createdAt: number
}

export function readProject(db: Db): ProjectRow | null {
  const row = db
    .prepare(
      /*sql*/ `SELECT id, root, remote, identity_source AS identitySource, common_dir AS commonDir,
                      created_at AS createdAt FROM project`,
    )
    .get() as ProjectRow | undefined
  return row ?? null
}

/** Records the project; an existing row keeps its creation time and takes the new facts. */
export function writeProject(db: Db, project: ProjectRow): void {
  db.prepare(
    /*sql*/ `INSERT INTO project (lock, id, root, remote, identity_source, common_dir, created_at)
             VALUES (1, @id, @root, @remote, @identitySource, @commonDir, @createdAt)
             ON CONFLICT (lock) DO UPDATE SET id = excluded.id, root = excluded.root, remote = excluded.remote,
               identity_source = excluded.identity_source, common_dir = excluded.common_dir`,
  ).run(project)
}

export function readSetting(db: Db, key: string): unknown {
  const row = db.prepare('SELECT value FROM setting WHERE key = ?').get(key) as { value: string } | undefined
  return row === undefined ? undefined : JSON.parse(row.value)
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  db.prepare(
    'INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, JSON.stringify(value))
}
