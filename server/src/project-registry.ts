/**
 * The registrar's list of the project ids that exist on this server, kept in the registrar
 * object's own SQLite (its one instance is `~registrar`, a name no project id can take). The Worker
 * asks it before starting a project object for an id it has not seen opened, so a request for an
 * id that was never created starts no object and costs no storage (docs/security.md).
 *
 * Projects created before the registrar kept ids are not in the list. `sangam serve` lists its
 * data dir at start and hands them over (`REGISTERED_PROJECTS`); on Cloudflare, where nothing can
 * list objects, an id the list lacks still reaches its object for `ADOPT_UNREGISTERED_DAYS` after
 * the registrar's first start, and is registered once the right key opens it (D331).
 */
export type ProjectStanding =
  /** Created here (or adopted): its object holds the project. */
  | 'registered'
  /** Not in the list, within the adoption window: its object decides, and a right key registers it. */
  | 'adoptable'
  /** Not in the list and the window is closed: no project by that id; refused without starting it. */
  | 'unknown'

const schema = /*sql*/ `
  CREATE TABLE IF NOT EXISTS registered_project (
    project_id    TEXT PRIMARY KEY,
    registered_at INTEGER NOT NULL,  -- ms epoch
    how           TEXT NOT NULL      -- created | adopted (opened by its key within the window) | listed (by sangam serve)
  );
  CREATE TABLE IF NOT EXISTS registry (
    lock      INTEGER PRIMARY KEY CHECK (lock = 1),
    opened_at INTEGER NOT NULL       -- ms epoch of the registrar's first start: the adoption window runs from here
  );`

export class ProjectRegistry {
  readonly #sql: SqlStorage
  readonly #adoptForMs: number
  #openedAt: number | null = null

  /** `listed`: the ids `sangam serve` found in its data dir, registered on first use. */
  constructor(sql: SqlStorage, adoptForDays: number, listed: readonly string[], now: number) {
    this.#sql = sql
    this.#adoptForMs = adoptForDays * 24 * 60 * 60 * 1000
    sql.exec(schema)
    sql.exec('INSERT INTO registry (lock, opened_at) VALUES (1, ?) ON CONFLICT (lock) DO NOTHING', now)
    for (const projectId of listed) this.register(projectId, 'listed', now)
  }

  standing(projectId: string, now: number): ProjectStanding {
    const found = this.#sql
      .exec('SELECT 1 AS present FROM registered_project WHERE project_id = ?', projectId)
      .toArray()
    if (found.length > 0) return 'registered'
    return now < this.#opened() + this.#adoptForMs ? 'adoptable' : 'unknown'
  }

  register(projectId: string, how: 'created' | 'adopted' | 'listed', now: number): void {
    this.#sql.exec(
      `INSERT INTO registered_project (project_id, registered_at, how) VALUES (?, ?, ?)
       ON CONFLICT (project_id) DO NOTHING`,
      projectId,
      now,
      how,
    )
  }

  #opened(): number {
    this.#openedAt ??= this.#sql.exec<{ opened_at: number }>('SELECT opened_at FROM registry').one().opened_at
    return this.#openedAt
  }
}
