import type { Db } from '../../../store/db.ts'

// codex_endpoint : per Codex session started under `sangam codex`, the app-server it lives in.
//   Written by the session's own hook (SessionStart reads the endpoint the launcher put in the
//   app-server's environment); read by delivery to start a turn in that live session. Local on
//   purpose: a socket is only reachable on the machine that owns it, and the daemon of that
//   machine delivers. `launcher_pid` is the `sangam codex` process that supervises the server:
//   once it is gone, so is the server (it kills it on the way out), whatever the socket file says.
export const createCodexEndpointTable = /*sql*/ `
  CREATE TABLE codex_endpoint (
    session_id   TEXT PRIMARY KEY,   -- the Codex thread id (its hooks' session_id)
    endpoint     TEXT NOT NULL,      -- unix:///…/app-server-<pid>.sock
    launcher_pid INTEGER NOT NULL,   -- the sangam codex process that runs the server
    recorded_at  INTEGER NOT NULL    -- ms epoch
  );`

export interface CodexEndpoint {
  readonly sessionId: string
  readonly endpoint: string
  readonly launcherPid: number
  readonly recordedAt: number
}

/** Records (or moves: a session resumed under another launcher) the session's endpoint. */
export function recordCodexEndpoint(db: Db, endpoint: CodexEndpoint): void {
  db.prepare(
    /*sql*/ `INSERT INTO codex_endpoint (session_id, endpoint, launcher_pid, recorded_at)
             VALUES (@sessionId, @endpoint, @launcherPid, @recordedAt)
             ON CONFLICT (session_id) DO UPDATE SET
               endpoint = excluded.endpoint, launcher_pid = excluded.launcher_pid,
               recorded_at = excluded.recorded_at`,
  ).run(endpoint)
}

/** The session's endpoint as last recorded, or null. */
export function readCodexEndpoint(db: Db, sessionId: string): CodexEndpoint | null {
  const row = db
    .prepare(
      /*sql*/ `SELECT session_id AS sessionId, endpoint, launcher_pid AS launcherPid, recorded_at AS recordedAt
               FROM codex_endpoint WHERE session_id = ?`,
    )
    .get(sessionId) as CodexEndpoint | undefined
  return row ?? null
}

/** Every recorded endpoint, newest first (for `sangam codex --json` and the delivery state). */
export function listCodexEndpoints(db: Db): CodexEndpoint[] {
  return db
    .prepare(
      /*sql*/ `SELECT session_id AS sessionId, endpoint, launcher_pid AS launcherPid, recorded_at AS recordedAt
               FROM codex_endpoint ORDER BY recorded_at DESC, session_id`,
    )
    .all() as CodexEndpoint[]
}

/** Forgets the endpoints of a launcher that has ended (its server is gone with it). */
export function forgetCodexLauncher(db: Db, launcherPid: number, endpoint: string): number {
  return db
    .prepare(/*sql*/ `DELETE FROM codex_endpoint WHERE launcher_pid = ? AND endpoint = ?`)
    .run(launcherPid, endpoint).changes
}
