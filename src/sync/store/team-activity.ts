import type { Db } from '../../store/db.ts'

/** One teammate's session, as far as its events reached this replica in a period. */
export interface TeamSessionActivity {
  readonly sessionId: string
  readonly vendor: string
  readonly author: string
  /** Events of the session received in the period. */
  readonly events: number
  /** When the newest of them happened (ms epoch, the teammate's transcript time). */
  readonly lastAt: number
  /** The session's latest human turn that reached this replica, if any. */
  readonly lastHuman: string | null
  /** The machine it lives on, when its presence reached this replica (by id). */
  readonly machine: string | null
}

/**
 * Sessions of other machines whose events arrived here after `since` (by arrival, not by when they
 * happened: a teammate back from a flight brings hours-old work that is new to the reader), the
 * most recently received first.
 */
export function teamActivitySince(
  db: Db,
  since: number,
  limit: number,
): { sessions: TeamSessionActivity[]; total: number } {
  const sessions = db
    .prepare(
      /*sql*/ `SELECT e.session_id AS sessionId, e.vendor, e.author, count(*) AS events, max(e.at) AS lastAt,
                      (SELECT h.text FROM event h
                       WHERE h.session_id = e.session_id AND h.kind = 'human' AND h.origin_gseq IS NOT NULL
                       ORDER BY h.at DESC LIMIT 1) AS lastHuman,
                      (SELECT p.machine FROM presence p
                       WHERE p.vendor = e.vendor AND p.session_id = e.session_id) AS machine
               FROM event e WHERE e.received_at > ?
               GROUP BY e.session_id ORDER BY max(e.received_at) DESC LIMIT ?`,
    )
    .all(since, limit) as TeamSessionActivity[]
  const { n } = db
    .prepare('SELECT count(DISTINCT session_id) AS n FROM event WHERE received_at > ?')
    .get(since) as { n: number }
  return { sessions, total: n }
}
