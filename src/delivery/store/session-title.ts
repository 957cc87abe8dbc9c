import type { Db } from '../../store/db.ts'

/** The first thing the human said in a session (its title in `sessions`), or null when capture has none. */
export function firstHumanText(db: Db, sessionId: string): string | null {
  const row = db
    .prepare("SELECT text FROM event WHERE session_id = ? AND kind = 'human' ORDER BY at, seq LIMIT 1")
    .get(sessionId) as { text: string } | undefined
  return row?.text ?? null
}
