import type { Db } from '../../store/db.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from './event-table.ts'

/**
 * Every note id starts with this. Notes are few among millions of events and there is no index on
 * kind, so they are found through the unique index on `id`: the prefix range holds notes only.
 */
export const noteIdPrefix = 'note_'
const prefixEnd = `${noteIdPrefix.slice(0, -1)}${String.fromCharCode(noteIdPrefix.charCodeAt(noteIdPrefix.length - 1) + 1)}`

/** Notes written after `after` (ms epoch), newest first, at most `limit`, and how many there are. */
export function listNotesAfter(
  db: Db,
  after: number,
  limit: number,
): { notes: StoredEvent[]; total: number } {
  const where = `e.id >= @from AND e.id < @to AND e.kind = 'note' AND e.at > @after`
  const params = { from: noteIdPrefix, to: prefixEnd, after }
  const rows = db
    .prepare(`${eventSelect} WHERE ${where} ORDER BY e.at DESC, e.seq DESC LIMIT @limit`)
    .all({ ...params, limit })
  const { n } = db.prepare(`SELECT count(*) AS n FROM event e WHERE ${where}`).get(params) as { n: number }
  return { notes: rows.map(toStoredEvent), total: n }
}
