import type { Db } from '../../store/db.ts'
import type { DeliveryChannel } from '../core/delivery-vocabulary.ts'

export type TurnState = 'starting' | 'running' | 'ended' | 'failed' | 'stopped' | 'unknown'

/** A turn sangam started (or a hand-over that extended one): the cost record. */
export interface TurnRow {
  readonly id: number
  readonly vendor: string
  readonly sessionId: string
  readonly channel: DeliveryChannel
  readonly cause: 'human' | 'agent'
  readonly why: 'tag' | 'send' | 'start' | 'hand-over'
  readonly messages: readonly string[]
  readonly state: TurnState
  readonly ownerPid: number
  readonly ownerStart: string | null
  readonly pid: number | null
  readonly pidStart: string | null
  readonly worktree: string | null
  readonly logFile: string | null
  readonly exitCode: number | null
  readonly detail: string | null
  readonly startedAt: number
  readonly endedAt: number | null
}

/** The columns under the row's field names: SQLite answers with the aliases. */
const fields =
  'id, vendor, session_id AS sessionId, channel, cause, why, messages, state, owner_pid AS ownerPid, owner_start AS ownerStart, pid, pid_start AS pidStart, worktree, log_file AS logFile, exit_code AS exitCode, detail, started_at AS startedAt, ended_at AS endedAt'

type Row = Omit<TurnRow, 'messages'> & { readonly messages: string }

function fromRow(row: Row): TurnRow {
  return { ...row, messages: JSON.parse(row.messages) as string[] }
}

export interface NewTurn {
  readonly vendor: string
  readonly sessionId: string
  readonly channel: DeliveryChannel
  readonly cause: 'human' | 'agent'
  readonly why: TurnRow['why']
  readonly messages: readonly string[]
  readonly state: 'starting' | 'ended'
  readonly ownerPid: number
  readonly ownerStart: string | null
  readonly worktree: string | null
}

/**
 * Inserts a turn. A `starting` turn for a session that has one `starting` or `running` violates
 * the unique index: null then, and nothing written (the caller's transaction goes on).
 */
export function insertTurn(db: Db, turn: NewTurn, now: number): number | null {
  const result = db
    .prepare(
      /*sql*/ `INSERT INTO delivery_turn (vendor, session_id, channel, cause, why, messages, state, owner_pid,
         owner_start, worktree, started_at, ended_at)
       VALUES (@vendor, @sessionId, @channel, @cause, @why, @messages, @state, @ownerPid, @ownerStart, @worktree,
         @now, CASE WHEN @state = 'ended' THEN @now ELSE NULL END)
       ON CONFLICT DO NOTHING`,
    )
    .run({ ...turn, messages: JSON.stringify(turn.messages), now })
  return result.changes > 0 ? Number(result.lastInsertRowid) : null
}

export function turnById(db: Db, id: number): TurnRow | null {
  const row = db.prepare(`SELECT ${fields} FROM delivery_turn WHERE id = ?`).get(id) as Row | undefined
  return row === undefined ? null : fromRow(row)
}

/** The session's turn that is `starting` or `running`, or null. */
export function liveTurnOf(db: Db, vendor: string, sessionId: string): TurnRow | null {
  const row = db
    .prepare(
      `SELECT ${fields} FROM delivery_turn WHERE vendor = ? AND session_id = ? AND state IN ('starting', 'running')`,
    )
    .get(vendor, sessionId) as Row | undefined
  return row === undefined ? null : fromRow(row)
}

/** Every turn still `starting` or `running` (for the sweep). */
export function liveTurns(db: Db): TurnRow[] {
  const rows = db
    .prepare(`SELECT ${fields} FROM delivery_turn WHERE state IN ('starting', 'running') ORDER BY id`)
    .all() as Row[]
  return rows.map(fromRow)
}

/** When the session's last turn started that was not a hand-over and did not fail to start, or null. */
export function lastTurnAt(db: Db, vendor: string, sessionId: string): number | null {
  const row = db
    .prepare(
      `SELECT max(started_at) AS at FROM delivery_turn WHERE vendor = ? AND session_id = ? AND channel <> 'hand-over'
         AND NOT (state = 'failed' AND pid IS NULL)`,
    )
    .get(vendor, sessionId) as { at: number | null }
  return row.at
}

/** Turns caused by agents' messages since the session's last turn a human caused: the loop count. */
export function agentTurnsSinceHuman(db: Db, vendor: string, sessionId: string): number {
  const row = db
    .prepare(
      /*sql*/ `SELECT count(*) AS n FROM delivery_turn
       WHERE vendor = @vendor AND session_id = @sessionId AND cause = 'agent' AND state <> 'failed'
         AND id > coalesce((SELECT max(id) FROM delivery_turn
           WHERE vendor = @vendor AND session_id = @sessionId AND cause = 'human'), 0)`,
    )
    .get({ vendor, sessionId }) as { n: number }
  return row.n
}

/** Moves a turn on, when it is still in one of `from`. */
export function updateTurn(
  db: Db,
  id: number,
  from: readonly TurnState[],
  change: {
    readonly state: TurnState
    readonly pid?: number | null
    readonly pidStart?: string | null
    readonly sessionId?: string
    readonly logFile?: string | null
    readonly exitCode?: number | null
    readonly detail?: string | null
    readonly endedAt?: number | null
  },
): boolean {
  const current = turnById(db, id)
  if (current === null || !from.includes(current.state)) return false
  db.prepare(
    /*sql*/ `UPDATE delivery_turn SET state = @state, pid = @pid, pid_start = @pidStart, session_id = @sessionId,
       log_file = @logFile, exit_code = @exitCode, detail = @detail, ended_at = @endedAt WHERE id = @id`,
  ).run({
    id,
    state: change.state,
    pid: change.pid === undefined ? current.pid : change.pid,
    pidStart: change.pidStart === undefined ? current.pidStart : change.pidStart,
    sessionId: change.sessionId ?? current.sessionId,
    logFile: change.logFile === undefined ? current.logFile : change.logFile,
    exitCode: change.exitCode === undefined ? current.exitCode : change.exitCode,
    detail: change.detail === undefined ? current.detail : change.detail,
    endedAt: change.endedAt === undefined ? current.endedAt : change.endedAt,
  })
  return true
}

/** The newest turns first, optionally of one session. */
export function recentTurns(
  db: Db,
  options: { readonly limit: number; readonly vendor?: string; readonly sessionId?: string },
): TurnRow[] {
  const rows = (
    options.sessionId === undefined
      ? db.prepare(`SELECT ${fields} FROM delivery_turn ORDER BY id DESC LIMIT ?`).all(options.limit)
      : db
          .prepare(
            `SELECT ${fields} FROM delivery_turn WHERE vendor = ? AND session_id = ? ORDER BY id DESC LIMIT ?`,
          )
          .all(options.vendor ?? '', options.sessionId, options.limit)
  ) as Row[]
  return rows.map(fromRow)
}
