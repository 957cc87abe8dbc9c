/**
 * The project object's SQLite schema, as numbered steps. A step never changes once released; the
 * object applies the missing ones when it starts. Durable Object SQLite refuses most pragmas, so
 * the version lives in a one-row table instead of `user_version`.
 */
const steps: readonly string[] = [
  /*sql*/ `
  CREATE TABLE project (
    lock          INTEGER PRIMARY KEY CHECK (lock = 1),  -- one row: this object is one project
    project_id    TEXT NOT NULL,
    key_digest    TEXT NOT NULL,     -- hex SHA-256 of the project key; the key itself is never stored
    created_at    INTEGER NOT NULL,  -- ms epoch
    fencing_token INTEGER NOT NULL   -- the last fencing token issued; 0 before the first lease
  );
  CREATE TABLE record (
    gseq        INTEGER PRIMARY KEY,  -- gapless: head + 1, assigned inside the append transaction
    id          TEXT NOT NULL UNIQUE, -- the client's record id: a replayed push finds its first gseq here
    type        TEXT NOT NULL,
    body        TEXT NOT NULL,        -- the synced record as JSON, served verbatim by pulls and sockets
    received_at INTEGER NOT NULL      -- ms epoch
  );
  CREATE TABLE lease (
    token      INTEGER PRIMARY KEY,  -- the fencing token it was granted with; kept on renewal
    body       TEXT NOT NULL,        -- the lease as JSON (src/leases/protocol/lease.ts)
    expires_at INTEGER NOT NULL      -- ms epoch, copied out of body so expired leases can be dropped
  );
  CREATE TABLE actor_activity (
    actor_key      TEXT PRIMARY KEY,  -- stable key of the actor (see presence.ts)
    actor          TEXT NOT NULL,     -- the actor as JSON
    last_active_at INTEGER NOT NULL   -- ms epoch of its last push, claim, release or activity message
  );`,
  /*sql*/ `
  CREATE TABLE integration_lock (
    lock       INTEGER PRIMARY KEY CHECK (lock = 1),  -- one row: one integration lock per project
    holder     TEXT,                 -- the holder as JSON (sync/protocol/integration-lock.ts); NULL when free
    last_token INTEGER NOT NULL      -- the last fencing token a grant took; tokens only grow
  );
  CREATE TABLE integration_lock_event (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    at   INTEGER NOT NULL,           -- ms epoch
    body TEXT NOT NULL               -- the event as JSON: acquired, released, taken-over (with the previous holder and reason)
  );`,
  /*sql*/ `
  CREATE TABLE integration_main (
    main INTEGER PRIMARY KEY CHECK (main = 1),  -- one row once the team has published: its main as sangam last moved it
    body TEXT NOT NULL                          -- the record as JSON (teamMainSchema, sync/protocol/integration-lock.ts)
  );`,
]

export const schemaVersion = steps.length

/**
 * Whether this object's storage holds a project at all. Reading the catalogue writes nothing, so a
 * request for a project id that was never created costs no storage: the schema is created only by
 * the create that registers the project (docs/security.md).
 */
export function schemaExists(sql: SqlStorage): boolean {
  return (
    sql
      .exec("SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
      .toArray().length > 0
  )
}

export function migrate(sql: SqlStorage): void {
  sql.exec(/*sql*/ `CREATE TABLE IF NOT EXISTS schema_version (
    lock INTEGER PRIMARY KEY CHECK (lock = 1),
    version INTEGER NOT NULL
  )`)
  const current =
    sql.exec<{ version: number }>('SELECT version FROM schema_version').toArray()[0]?.version ?? 0
  if (current > steps.length)
    throw new Error(
      `this project's storage is at schema ${current}, newer than this server (${steps.length})`,
    )
  for (const [index, step] of steps.entries()) {
    if (index < current) continue
    sql.exec(step)
  }
  sql.exec(
    'INSERT INTO schema_version (lock, version) VALUES (1, ?) ON CONFLICT (lock) DO UPDATE SET version = excluded.version',
    steps.length,
  )
}
