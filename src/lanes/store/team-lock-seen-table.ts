import type { Db } from '../../store/db.ts'
import { hasTable } from './main-record-table.ts'

// team_lock_seen : the team server's integration lock as this machine last read it (status, sync,
//                  the board, the daemon), for the brief, which asks no server (D216, D307). holder
//                  is the holder as JSON, null when the lock was free.
export const createTeamLockSeenTable = /*sql*/ `
  CREATE TABLE team_lock_seen (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    holder   TEXT,
    seen_at  INTEGER NOT NULL
  );`

/** The holder as the server named it; `elsewhere`: a lane of another machine than this one. */
export interface SeenHolder {
  readonly lane: string
  readonly owner: string
  readonly machine: string
  readonly elsewhere: boolean
  readonly task: string | null
  readonly since: number
  readonly heartbeatAt: number
}

export interface TeamLockSeen {
  readonly holder: SeenHolder | null
  readonly seenAt: number
}

export function readTeamLockSeen(db: Db): TeamLockSeen | null {
  if (!hasTable(db, 'team_lock_seen')) return null
  const row = db.prepare('SELECT holder, seen_at FROM team_lock_seen WHERE id = 1').get() as
    | { holder: string | null; seen_at: number }
    | undefined
  if (row === undefined) return null
  return { holder: row.holder === null ? null : parseHolder(row.holder), seenAt: row.seen_at }
}

export function writeTeamLockSeen(db: Db, seen: TeamLockSeen): void {
  db.prepare(
    `INSERT INTO team_lock_seen (id, holder, seen_at) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, seen_at = excluded.seen_at`,
  ).run(seen.holder === null ? null : JSON.stringify(seen.holder), seen.seenAt)
}

/** Our own JSON, written above; a row that is not (a hand edit) reads as a free lock's. */
function parseHolder(text: string): SeenHolder | null {
  try {
    const value = JSON.parse(text) as Partial<SeenHolder>
    if (
      typeof value.lane !== 'string' ||
      typeof value.owner !== 'string' ||
      typeof value.machine !== 'string'
    )
      return null
    return {
      lane: value.lane,
      owner: value.owner,
      machine: value.machine,
      elsewhere: value.elsewhere === true,
      task: typeof value.task === 'string' ? value.task : null,
      since: typeof value.since === 'number' ? value.since : 0,
      heartbeatAt: typeof value.heartbeatAt === 'number' ? value.heartbeatAt : 0,
    }
  } catch {
    return null
  }
}
