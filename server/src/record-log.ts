import type { AppendableRecord } from '../../src/sync/protocol/record.ts'
import { Refusal } from './refusal.ts'

/**
 * The project's records in gseq order. Bodies are stored as the JSON the clients receive, so a pull
 * or a socket page is a concatenation of stored strings: nothing is parsed or re-serialised on the
 * read path.
 */
export interface AppendOutcome {
  readonly id: string
  readonly gseq: number
  /** `duplicate`: a record with this id was appended before; `gseq` is that first one's. */
  readonly status: 'created' | 'duplicate'
}

export interface RecordPage {
  /** Record bodies (JSON text), in gseq order. */
  readonly bodies: readonly string[]
  /** The gseq of the last record in the page, or `after` when the page is empty. */
  readonly through: number
}

export class RecordLog {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
  }

  head(): number {
    return this.#sql.exec<{ head: number }>('SELECT coalesce(max(gseq), 0) AS head FROM record').one().head
  }

  /**
   * Appends records in order, skipping any whose id is already in the log. Call inside a
   * transaction: gseqs continue from the head, so appends that commit together stay gapless.
   */
  append(contents: readonly AppendableRecord[], receivedAt: number): AppendOutcome[] {
    let head = this.head()
    return contents.map((content) => {
      const { id } = content
      const inserted = this.#sql
        .exec<{ gseq: number }>(
          `INSERT INTO record (gseq, id, type, body, received_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO NOTHING RETURNING gseq`,
          head + 1,
          id,
          content.type,
          render(content, head + 1, receivedAt),
          receivedAt,
        )
        .toArray()[0]
      if (inserted !== undefined) {
        head = inserted.gseq
        return { id, gseq: inserted.gseq, status: 'created' }
      }
      const first = this.#sql.exec<{ gseq: number }>('SELECT gseq FROM record WHERE id = ?', id).one()
      return { id, gseq: first.gseq, status: 'duplicate' }
    })
  }

  /** Records after `after`, at most `limit` of them and, past the first, at most `maxBytes` of body. */
  page(after: number, limit: number, maxBytes: number): RecordPage {
    const bodies: string[] = []
    let through = after
    let bytes = 0
    const cursor = this.#sql.exec<{ gseq: number; body: string }>(
      'SELECT gseq, body FROM record WHERE gseq > ? ORDER BY gseq LIMIT ?',
      after,
      limit,
    )
    for (const row of cursor) {
      bytes += row.body.length
      if (bodies.length > 0 && bytes > maxBytes) break
      bodies.push(row.body)
      through = row.gseq
    }
    return { bodies, through }
  }
}

/**
 * A cursor (`after`) beyond the head means the client's replica was synced with another server,
 * or with this one before its data was lost: answering an empty page would hide that for ever.
 */
export function refuseCursorAhead(after: number, head: number): void {
  if (after > head)
    throw new Refusal('CURSOR_AHEAD', `after=${after} is beyond this project's head ${head}`, {
      headGseq: head,
    })
}

/** The stored (and served) form of a record: its content with its place in the order stamped on. */
function render(content: AppendableRecord, gseq: number, receivedAt: number): string {
  return JSON.stringify({
    gseq,
    receivedAt: new Date(receivedAt).toISOString(),
    id: content.id,
    type: content.type,
    actor: content.actor,
    at: content.at,
    payload: content.payload,
  })
}
