import type { Db } from '../db.ts'

export interface IntegrationEvent {
  readonly id: number
  readonly at: number
  readonly type: string
  readonly lane: string | null
  readonly payload: Readonly<Record<string, unknown>>
}

export function appendIntegrationEvent(
  db: Db,
  event: { type: string; lane: string | null; payload: Readonly<Record<string, unknown>> },
  now: number,
): void {
  db.prepare('INSERT INTO integration_event (at, type, lane, payload) VALUES (?, ?, ?, ?)').run(
    now,
    event.type,
    event.lane,
    JSON.stringify(event.payload),
  )
}

/** The latest `limit` events, oldest first. */
export function readIntegrationEvents(db: Db, limit: number): IntegrationEvent[] {
  const rows = db
    .prepare('SELECT id, at, type, lane, payload FROM integration_event ORDER BY id DESC LIMIT ?')
    .all(limit) as { id: number; at: number; type: string; lane: string | null; payload: string }[]
  return rows.reverse().map((row) => ({
    id: row.id,
    at: row.at,
    type: row.type,
    lane: row.lane,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  }))
}
