import type { Db } from '../../store/db.ts'
import type { DeliveryChannel, DeliveryState, SenderKind } from '../core/delivery-vocabulary.ts'

/**
 * How a row's message names the session: its `@handle`, its `#worktree`, the thread it was posted
 * into (the session is a participant, D272), or a `send` to it.
 */
export type DeliveryMode = 'handle' | 'worktree' | 'thread' | 'send'

/** A (message, session) row of the ledger. */
export interface DeliveryRow {
  readonly messageId: string
  readonly vendor: string
  readonly sessionId: string
  readonly state: DeliveryState
  readonly channel: DeliveryChannel | null
  readonly reason: string | null
  readonly sender: string
  readonly senderKind: SenderKind
  readonly mode: DeliveryMode
  readonly turnId: number | null
  readonly createdAt: number
  readonly updatedAt: number
}

const columns =
  'message_id, vendor, session_id, state, channel, reason, sender, sender_kind, mode, turn_id, created_at, updated_at'

/** The columns under the row's field names: SQLite answers with the aliases, so no mapping step. */
const fields =
  'message_id AS messageId, vendor, session_id AS sessionId, state, channel, reason, sender, sender_kind AS senderKind, mode, turn_id AS turnId, created_at AS createdAt, updated_at AS updatedAt'

/** node:sqlite's rows have a null prototype; callers get plain objects. */
const fromRow = (row: DeliveryRow): DeliveryRow => ({ ...row })

/** A row as it is first written: no turn yet, and its times are the moment it is added. */
export type NewDelivery = Omit<DeliveryRow, 'turnId' | 'createdAt' | 'updatedAt'>

/** Adds a row unless that (message, session) is already in the ledger. True when it was new. */
export function addDelivery(db: Db, row: NewDelivery, now: number): boolean {
  const result = db
    .prepare(
      /*sql*/ `INSERT INTO delivery (${columns})
       VALUES (@messageId, @vendor, @sessionId, @state, @channel, @reason, @sender, @senderKind, @mode, NULL, @now, @now)
       ON CONFLICT (message_id, vendor, session_id) DO NOTHING`,
    )
    .run({ ...row, now })
  return result.changes > 0
}

export function deliveryOf(db: Db, messageId: string, vendor: string, sessionId: string): DeliveryRow | null {
  const row = db
    .prepare(`SELECT ${fields} FROM delivery WHERE message_id = ? AND vendor = ? AND session_id = ?`)
    .get(messageId, vendor, sessionId) as DeliveryRow | undefined
  return row === undefined ? null : fromRow(row)
}

/**
 * Which of `messageIds` a turn sangam started (or is starting) for the session carried in its own
 * prompt: the session's hooks leave them out of its room context, which would show them twice.
 */
export function carriedToSession(
  db: Db,
  session: { readonly vendor: string; readonly sessionId: string },
  messageIds: readonly string[],
): Set<string> {
  if (messageIds.length === 0) return new Set()
  const rows = db
    .prepare(
      `SELECT message_id FROM delivery
        WHERE vendor = ? AND session_id = ? AND state IN ('starting', 'delivered') AND turn_id IS NOT NULL
          AND message_id IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(session.vendor, session.sessionId, JSON.stringify(messageIds)) as string[]
  return new Set(rows)
}

/**
 * Moves a row that is still in one of `from` to `state`; false when another process moved it
 * first (the caller then leaves it alone).
 */
export function moveDelivery(
  db: Db,
  key: { readonly messageId: string; readonly vendor: string; readonly sessionId: string },
  from: readonly DeliveryState[],
  to: {
    readonly state: DeliveryState
    readonly channel?: DeliveryChannel | null
    readonly reason?: string | null
    readonly turnId?: number | null
  },
  now: number,
): boolean {
  const result = db
    .prepare(
      /*sql*/ `UPDATE delivery SET state = @state,
         channel = CASE WHEN @setChannel THEN @channel ELSE channel END,
         reason = CASE WHEN @setReason THEN @reason ELSE reason END,
         turn_id = CASE WHEN @setTurn THEN @turnId ELSE turn_id END,
         updated_at = @now
       WHERE message_id = @messageId AND vendor = @vendor AND session_id = @sessionId
         AND state IN (SELECT value FROM json_each(@from))`,
    )
    .run({
      ...key,
      state: to.state,
      setChannel: to.channel === undefined ? 0 : 1,
      channel: to.channel ?? null,
      setReason: to.reason === undefined ? 0 : 1,
      reason: to.reason ?? null,
      setTurn: to.turnId === undefined ? 0 : 1,
      turnId: to.turnId ?? null,
      from: JSON.stringify(from),
      now,
    })
  return result.changes > 0
}

/** The rows still pending, oldest first: what the daemon weighs again each time it looks. */
export function pendingDeliveries(db: Db, limit = 2000): DeliveryRow[] {
  const rows = db
    .prepare(`SELECT ${fields} FROM delivery WHERE state = 'pending' ORDER BY created_at, message_id LIMIT ?`)
    .all(limit) as DeliveryRow[]
  return rows.map(fromRow)
}

/** The newest rows first, optionally of one session. */
export function recentDeliveries(
  db: Db,
  options: { readonly limit: number; readonly vendor?: string; readonly sessionId?: string },
): DeliveryRow[] {
  const rows = (
    options.sessionId === undefined
      ? db
          .prepare(`SELECT ${fields} FROM delivery ORDER BY updated_at DESC, rowid DESC LIMIT ?`)
          .all(options.limit)
      : db
          .prepare(
            `SELECT ${fields} FROM delivery WHERE vendor = ? AND session_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
          )
          .all(options.vendor ?? '', options.sessionId, options.limit)
  ) as DeliveryRow[]
  return rows.map(fromRow)
}

/** How far the daemon has looked through the room's messages (local seq), or null before its first look. */
export function readScanCursor(db: Db): number | null {
  const row = db.prepare('SELECT seen_seq FROM delivery_scan WHERE id = 1').get() as
    | { seen_seq: number }
    | undefined
  return row === undefined ? null : row.seen_seq
}

/**
 * When this store got its delivery ledger (ms epoch): migration 15's step, which a store created
 * since runs as it is created. Delivery weighs every tag posted since then and none before (D273):
 * what was posted before is the room's history, pulled from the team or left from before delivery
 * existed. 0 when the store cannot say (a step recorded by no clock).
 */
export function deliverySince(db: Db): number {
  const row = db.prepare('SELECT applied_at FROM schema_migration WHERE version = 15').get() as
    | { applied_at: number }
    | undefined
  return row?.applied_at ?? 0
}

export function writeScanCursor(db: Db, seenSeq: number): void {
  db.prepare(
    'INSERT INTO delivery_scan (id, seen_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET seen_seq = excluded.seen_seq',
  ).run(seenSeq)
}

/** Records the tmux pane a session runs in (its hooks see `$TMUX_PANE`). */
export function recordPane(db: Db, vendor: string, sessionId: string, pane: string, now: number): void {
  db.prepare(
    /*sql*/ `INSERT INTO delivery_pane (vendor, session_id, pane, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (vendor, session_id) DO UPDATE SET pane = excluded.pane, updated_at = excluded.updated_at
     WHERE delivery_pane.pane IS NOT excluded.pane`,
  ).run(vendor, sessionId, pane, now)
}

export function paneOf(db: Db, vendor: string, sessionId: string): string | null {
  const row = db
    .prepare('SELECT pane FROM delivery_pane WHERE vendor = ? AND session_id = ?')
    .get(vendor, sessionId) as { pane: string } | undefined
  return row?.pane ?? null
}
