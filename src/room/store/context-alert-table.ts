import type { Db } from '../../store/db.ts'

// room_context_alert : per agent session, the alerts (house rules at warn or refuse) its context
//   has already carried, by the alert's stable id, so each reaches a session once. Local, like
//   the context cursor. Rows older than a week are dropped as new ones are written: an alert
//   still standing after that is told again, which is what a week-old warning deserves.
export const createContextAlertTable = /*sql*/ `
  CREATE TABLE room_context_alert (
    vendor     TEXT NOT NULL,
    session_id TEXT NOT NULL,
    alert_id   TEXT NOT NULL,
    shown_at   INTEGER NOT NULL,  -- ms epoch
    PRIMARY KEY (vendor, session_id, alert_id)
  );
  CREATE INDEX room_context_alert_by_time ON room_context_alert (shown_at);`

/** How long a shown alert is remembered. */
export const shownAlertMemoryMs = 7 * 24 * 60 * 60_000

/** The ids of the alerts the session's context has carried. */
export function shownAlertIds(db: Db, vendor: string, sessionId: string): Set<string> {
  const rows = db
    .prepare('SELECT alert_id AS id FROM room_context_alert WHERE vendor = ? AND session_id = ?')
    .all(vendor, sessionId) as { id: string }[]
  return new Set(rows.map((row) => row.id))
}

/** Records that the session was shown `ids` at `now`, and forgets what is older than a week. */
export function recordShownAlerts(
  db: Db,
  shown: { readonly vendor: string; readonly sessionId: string; readonly ids: readonly string[] },
  now: number,
): void {
  const insert = db.prepare(
    /*sql*/ `INSERT OR REPLACE INTO room_context_alert (vendor, session_id, alert_id, shown_at)
             VALUES (?, ?, ?, ?)`,
  )
  for (const id of shown.ids) insert.run(shown.vendor, shown.sessionId, id, now)
  db.prepare('DELETE FROM room_context_alert WHERE shown_at < ?').run(now - shownAlertMemoryMs)
}
