import type { Actor } from '../../identity/protocol/actor.ts'
import { enqueueRecord } from '../../records/store/record-outbox.ts'
import { redactAll, redactForWire } from '../../secrets/core/wire-fields.ts'
import type { Db } from '../../store/db.ts'
import type { IntegrationEventRecord } from '../protocol/records/integration-event.ts'
import {
  appendIntegrationEvent,
  type IntegrationOrigin,
  integrationRecordId,
  markIntegrationEventShared,
  unsharedIntegrationEvents,
} from '../store/integration-event-table.ts'

/**
 * Integration events are team records (`integration.event`): each one a lane command records on
 * this machine is queued for the team in the transaction that writes it, so every machine's `log`
 * and dashboard show every machine's publishes, each once (the record id is the machine's row id).
 */
export function recordIntegrationEvent(
  db: Db,
  origin: IntegrationOrigin,
  event: { type: string; lane: string | null; payload: Readonly<Record<string, unknown>> },
  now: number,
): void {
  db.transaction(() => {
    const n = appendIntegrationEvent(db, event, origin, now)
    enqueueRecord(db, integrationDraft(origin, n, { ...event, at: now }), now)
  }).immediate()
}

/**
 * Events recorded before they were shared (a store from before migration 27): this machine's, so
 * each gets its id and is queued once. The daemon calls it as it starts; true when some were.
 */
export function shareIntegrationBacklog(db: Db, origin: IntegrationOrigin, now: number): boolean {
  return db
    .transaction((): boolean => {
      const rows = unsharedIntegrationEvents(db, 10_000)
      for (const row of rows) {
        const recordId = integrationRecordId(origin.machine, row.id)
        markIntegrationEventShared(db, row.id, origin, recordId)
        enqueueRecord(db, integrationDraft(origin, row.id, row), now)
      }
      return rows.length > 0
    })
    .immediate()
}

function integrationDraft(
  origin: IntegrationOrigin,
  n: number,
  event: { at: number; type: string; lane: string | null; payload: Readonly<Record<string, unknown>> },
): Omit<IntegrationEventRecord, 'gseq' | 'receivedAt'> {
  const actor: Actor = { human: origin.human, vendor: null, sessionId: null }
  const draft = {
    id: integrationRecordId(origin.machine, n),
    type: 'integration.event' as const,
    actor,
    at: new Date(event.at).toISOString(),
    payload: {
      machine: origin.machine,
      human: origin.human,
      at: event.at,
      type: event.type,
      lane: event.lane,
      detail: JSON.stringify(boundedDetail(event.payload)),
    },
  }
  // Shared as recorded, a secret in any field redacted (a check's command may hold a token): the
  // lane command that recorded it has done its work and is never refused for what it shares.
  return redactForWire('integration.event', draft, redactAll).value
}

/**
 * The most characters an event's JSON payload keeps when shared; a longer one keeps its first list
 * items. Here, not beside the schema: the hooks bundle this file and must not load zod.
 */
export const maxIntegrationPayloadChars = 8000
/** Items a long list keeps when a payload is too large to share whole. */
const keptItems = 20

/**
 * The payload as shared: whole when it fits `maxIntegrationPayloadChars`, else each list cut to
 * its first items with its full length beside it (`<key>Total`), else only the keys that fit.
 * A delete's manifest of thousands of files must not make a record the server refuses.
 */
export function boundedDetail(payload: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (JSON.stringify(payload).length <= maxIntegrationPayloadChars) return { ...payload }
  const cut: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(payload)) {
    if (Array.isArray(value) && value.length > keptItems) {
      cut[key] = value.slice(0, keptItems)
      cut[`${key}Total`] = value.length
    } else cut[key] = value
  }
  if (JSON.stringify(cut).length <= maxIntegrationPayloadChars) return cut
  const fitting: Record<string, unknown> = { truncated: true }
  for (const [key, value] of Object.entries(cut)) {
    const next = { ...fitting, [key]: value }
    if (JSON.stringify(next).length <= maxIntegrationPayloadChars) fitting[key] = value
  }
  return fitting
}
