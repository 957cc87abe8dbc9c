import type { Db } from '../../store/db.ts'

/** The lock row as stored (the table is created with the lane table, lane-table.ts). */
export interface LockRow {
  readonly lane: string
  readonly owner: string
  readonly task: string | null
  readonly since: number
  readonly heartbeatAt: number
  readonly token: number
}

interface Row {
  lane: string | null
  owner: string | null
  task: string | null
  since: number | null
  heartbeat_at: number | null
  token: number
}

export function readLock(db: Db): LockRow | null {
  const row = db
    .prepare('SELECT lane, owner, task, since, heartbeat_at, token FROM integration_lock WHERE id = 1')
    .get() as Row | undefined
  if (row === undefined || row.lane === null || row.owner === null || row.since === null) return null
  return {
    lane: row.lane,
    owner: row.owner,
    task: row.task,
    since: row.since,
    heartbeatAt: row.heartbeat_at ?? row.since,
    token: row.token,
  }
}

/**
 * Grants the lock to `lane` when it is free, in one IMMEDIATE transaction; answers the holder
 * either way (the new one, or whoever holds it).
 */
export function acquireLockRow(
  db: Db,
  input: { lane: string; owner: string; task: string | null },
  now: number,
): { granted: boolean; holder: LockRow } {
  return db
    .transaction(() => {
      const held = readLock(db)
      if (held !== null) return { granted: false, holder: held }
      db.prepare(
        'UPDATE integration_lock SET lane = ?, owner = ?, task = ?, since = ?, heartbeat_at = ?, token = token + 1 WHERE id = 1',
      ).run(input.lane, input.owner, input.task, now, now)
      const holder = readLock(db)
      if (holder === null) throw new Error('the integration lock vanished inside its own transaction')
      return { granted: true, holder }
    })
    .immediate()
}

/** Hands the lock to a new holder whatever holds it now (a takeover); a new token. */
export function replaceLockRow(
  db: Db,
  input: { lane: string; owner: string; task: string | null },
  now: number,
): LockRow {
  db.prepare(
    'UPDATE integration_lock SET lane = ?, owner = ?, task = ?, since = ?, heartbeat_at = ?, token = token + 1 WHERE id = 1',
  ).run(input.lane, input.owner, input.task, now, now)
  const holder = readLock(db)
  if (holder === null) throw new Error('the integration lock vanished after a takeover')
  return holder
}

/** Refreshes the heartbeat (and the task) of the tenure `token`; false when it is no longer held. */
export function touchLockRow(db: Db, token: number, task: string | null, now: number): boolean {
  return (
    db
      .prepare(
        'UPDATE integration_lock SET heartbeat_at = ?, task = ? WHERE id = 1 AND token = ? AND lane IS NOT NULL',
      )
      .run(now, task, token).changes === 1
  )
}

/** Frees the lock if tenure `token` still holds it. */
export function releaseLockRow(db: Db, token: number): void {
  db.prepare(
    'UPDATE integration_lock SET lane = NULL, owner = NULL, task = NULL, since = NULL, heartbeat_at = NULL WHERE id = 1 AND token = ?',
  ).run(token)
}
