import type { Db } from '../../store/db.ts'

/** A session of this machine, as far as its events reach in a period. */
export interface SessionActivity {
  readonly id: string
  readonly vendor: string
  readonly author: string
  readonly cliVersion: string | null
  readonly branch: string | null
  /** Its events in the period. */
  readonly events: number
  /** When the newest of them happened (ms epoch, transcript time). */
  readonly lastAt: number
  /** The session's latest human turn, whenever it was; null when it has none. */
  readonly lastHuman: string | null
}

/**
 * Sessions of this machine (events captured here, not received from the team server: the brief
 * tells those apart) with events after `since`, most recent first. Walks `event_by_at` from `since`,
 * so its cost follows what happened since then, not the size of the store.
 */
export function localSessionsSince(
  db: Db,
  since: number,
  limit: number,
): { sessions: SessionActivity[]; total: number } {
  const sessions = db
    .prepare(
      /*sql*/ `SELECT a.id, s.vendor, s.author, s.cli_version AS cliVersion, s.branch, a.events, a.lastAt,
                      (SELECT h.text FROM event h INDEXED BY event_by_session
                       WHERE h.session_id = a.id AND h.kind = 'human'
                       ORDER BY h.at DESC LIMIT 1) AS lastHuman
               FROM (SELECT e.session_id AS id, count(*) AS events, max(e.at) AS lastAt
                     FROM event e INDEXED BY event_by_at
                     WHERE e.at > ? AND e.origin_gseq IS NULL AND e.kind != 'note'
                     GROUP BY e.session_id) AS a
               JOIN session s ON s.id = a.id
               ORDER BY a.lastAt DESC, a.id LIMIT ?`,
    )
    .all(since, limit) as SessionActivity[]
  const { n } = db
    .prepare(
      /*sql*/ `SELECT count(DISTINCT session_id) AS n FROM event INDEXED BY event_by_at
               WHERE at > ? AND origin_gseq IS NULL AND kind != 'note'`,
    )
    .get(since) as { n: number }
  return { sessions, total: n }
}

/** When a session's newest event here happened (ms epoch), or null when none is here. */
export function sessionLastAt(db: Db, sessionId: string): number | null {
  const row = db.prepare('SELECT last_at AS lastAt FROM session WHERE id = ?').get(sessionId) as
    | { lastAt: number }
    | undefined
  return row?.lastAt ?? null
}
