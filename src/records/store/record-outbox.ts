import type { Db } from '../../store/db.ts'

// record_outbox : records this machine authored that are not events (room messages, threads,
//                 presence, room options), queued in the same transaction as the local write they
//                 share, and deleted once the server acknowledged them. Events need no queue: the
//                 event table is their outbox (outbox.ts). Without a server nothing is read from
//                 here; attaching later sends what was queued, in order, exactly once (the record id
//                 is the push's idempotency key).
export const createRecordOutboxTable = /*sql*/ `
  CREATE TABLE record_outbox (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT NOT NULL UNIQUE,   -- the record id
    type       TEXT NOT NULL,          -- the record type name
    draft      TEXT NOT NULL,          -- JSON: the draft as pushed
    queued_at  INTEGER NOT NULL        -- ms epoch
  );`

/** A queued draft, as it will be pushed. */
export interface QueuedRecord {
  readonly seq: number
  readonly id: string
  readonly type: string
  /** The draft, parsed back from JSON; the pusher checks it against the draft schema. */
  readonly draft: unknown
}

interface QueuedRow {
  seq: number
  id: string
  type: string
  draft: string
}

/**
 * Queues a draft for the team. Call it inside the transaction of the local write it shares, so the
 * two land or vanish together. Queuing the same id again replaces the waiting draft (a presence
 * that changed twice before the push sends only the latest).
 */
export function enqueueRecord(
  db: Db,
  draft: { readonly id: string; readonly type: string },
  now: number,
): void {
  db.prepare(
    // REPLACE deletes the waiting row and inserts a new one with a new seq, so an acknowledgement
    // of the old version (matched by id and seq) leaves the new one queued.
    /*sql*/ 'INSERT OR REPLACE INTO record_outbox (id, type, draft, queued_at) VALUES (@id, @type, @draft, @now)',
  ).run({ id: draft.id, type: draft.type, draft: JSON.stringify(draft), now })
}

/** Up to `limit` queued drafts, oldest first. */
export function queuedRecords(db: Db, limit: number): QueuedRecord[] {
  const rows = db
    .prepare(/*sql*/ 'SELECT seq, id, type, draft FROM record_outbox ORDER BY seq LIMIT ?')
    .all(limit) as QueuedRow[]
  return rows.map((row) => ({ seq: row.seq, id: row.id, type: row.type, draft: JSON.parse(row.draft) }))
}

/**
 * Forgets drafts the server acknowledged. Only the queued version that was pushed is removed: a
 * draft re-queued under the same id after the push read it (a newer presence) stays for the next.
 */
export function acknowledgeRecords(
  db: Db,
  pushed: readonly { readonly seq: number; readonly id: string }[],
): void {
  const remove = db.prepare('DELETE FROM record_outbox WHERE id = ? AND seq = ?')
  db.transaction(() => {
    for (const record of pushed) remove.run(record.id, record.seq)
  })()
}

/** How many drafts wait for the server. */
export function queuedRecordCount(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM record_outbox').get() as { n: number }).n
}
