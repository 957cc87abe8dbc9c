import type { Db } from '../../store/db.ts'
import type { IntegrationEventPayload } from '../protocol/integration-event.ts'

// integration_event (migration 18) gains where each event came from (migration 27): the machine
// it happened on and the human who ran it, and `record_id`, the id of its `integration.event`
// record (integration:<machine>:<n>), unique, so a record applied twice (or this machine's own,
// echoed by the server) is one row. Rows from before have all three null: this machine's, not
// yet shared (`shareIntegrationBacklog` gives them ids and queues them once).
export const addIntegrationEventOrigin = /*sql*/ `
  ALTER TABLE integration_event ADD COLUMN machine TEXT;
  ALTER TABLE integration_event ADD COLUMN human TEXT;
  ALTER TABLE integration_event ADD COLUMN record_id TEXT;
  CREATE UNIQUE INDEX integration_event_by_record ON integration_event (record_id);
  CREATE INDEX integration_event_by_at ON integration_event (at);`

export interface IntegrationEvent {
  readonly id: number
  readonly at: number
  readonly type: string
  readonly lane: string | null
  readonly payload: Readonly<Record<string, unknown>>
  /** The machine it happened on; null for a row recorded before machines were (this machine's). */
  readonly machine: string | null
  readonly human: string | null
}

type Row = Omit<IntegrationEvent, 'payload'> & { readonly payload: string }

/** Where an event is recorded: this machine and the human running the command. */
export interface IntegrationOrigin {
  readonly machine: string
  readonly human: string
}

/**
 * Records this machine's event; returns its row id (its record's `n`). The caller queues the
 * record in the same transaction.
 */
export function appendIntegrationEvent(
  db: Db,
  event: { type: string; lane: string | null; payload: Readonly<Record<string, unknown>> },
  origin: IntegrationOrigin,
  now: number,
): number {
  const id = Number(
    db
      .prepare(
        'INSERT INTO integration_event (at, type, lane, payload, machine, human) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(now, event.type, event.lane, JSON.stringify(event.payload), origin.machine, origin.human)
      .lastInsertRowid,
  )
  db.prepare('UPDATE integration_event SET record_id = ? WHERE id = ?').run(
    integrationRecordId(origin.machine, id),
    id,
  )
  return id
}

/** `integration:<machine>:<n>`: the machine's row id makes it unique and stable across resends. */
export function integrationRecordId(machine: string, n: number): string {
  return `integration:${machine}:${n}`
}

/** Another machine's event, from its record: stored once, whatever the number of deliveries. */
export function applyIntegrationEvent(db: Db, recordId: string, event: IntegrationEventPayload): boolean {
  const result = db
    .prepare(
      /*sql*/ `INSERT INTO integration_event (at, type, lane, payload, machine, human, record_id)
               VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (record_id) DO NOTHING`,
    )
    .run(event.at, event.type, event.lane, detailObject(event.detail), event.machine, event.human, recordId)
  return result.changes > 0
}

/** The record's detail as the stored JSON object; text that is not one is kept under `text`. */
function detailObject(detail: string): string {
  try {
    const parsed: unknown = JSON.parse(detail)
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return detail
  } catch {
    // Not JSON (a newer or broken writer): kept as text below.
  }
  return JSON.stringify({ text: detail })
}

/** This machine's rows recorded before they were shared, oldest first. */
export function unsharedIntegrationEvents(db: Db, limit: number): IntegrationEvent[] {
  const rows = db
    .prepare(
      'SELECT id, at, type, lane, payload, machine, human FROM integration_event WHERE record_id IS NULL ORDER BY id LIMIT ?',
    )
    .all(limit) as Row[]
  return rows.map(fromRow)
}

/** Marks an old row as this machine's and shared under `recordId`. */
export function markIntegrationEventShared(
  db: Db,
  id: number,
  origin: IntegrationOrigin,
  recordId: string,
): void {
  db.prepare('UPDATE integration_event SET machine = ?, human = ?, record_id = ? WHERE id = ?').run(
    origin.machine,
    origin.human,
    recordId,
    id,
  )
}

/** The latest `limit` events of every machine, oldest first (by when they happened). */
export function readIntegrationEvents(db: Db, limit: number): IntegrationEvent[] {
  const rows = db
    .prepare(
      'SELECT id, at, type, lane, payload, machine, human FROM integration_event ORDER BY at DESC, id DESC LIMIT ?',
    )
    .all(limit) as Row[]
  return rows.reverse().map(fromRow)
}

function fromRow(row: Row): IntegrationEvent {
  return { ...row, payload: JSON.parse(row.payload) as Record<string, unknown> }
}
