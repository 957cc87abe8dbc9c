import { formatByteSize } from '../../src/shared/byte-size.ts'
import type { RecordDraft } from '../../src/sync/protocol/record.ts'
import { Refusal } from './refusal.ts'

const utf8 = new TextEncoder()

/** Bytes a stored record costs beyond its body: its id again in the unique index, the row, the gseq key. */
const perRecordOverheadBytes = 128

/**
 * A project's storage against its budget (`MAX_PROJECT_BYTES`), measured as the size of the
 * object's SQLite database (`databaseSize`: pages in use, the WAL included; it is what the disk
 * or Cloudflare bills). Records are never deleted, so it only grows.
 *
 * A push is refused, before anything is written, when its records would take the project past the
 * budget. What keeps a team working together, and writes little (claims and releases, the
 * integration lock, activity), goes on into a reserve above the budget, and stops there too, so
 * nothing a keyholder can send grows the project without bound.
 */
export class StorageBudget {
  readonly #sql: SqlStorage
  readonly #limitBytes: number

  constructor(sql: SqlStorage, limitBytes: number) {
    this.#sql = sql
    this.#limitBytes = limitBytes
  }

  get limitBytes(): number {
    return this.#limitBytes
  }

  /** The reserve above the budget for claims, releases, the lock and activity: a twentieth, at least 1 MiB. */
  get reserveBytes(): number {
    return Math.max(1024 * 1024, Math.floor(this.#limitBytes / 20))
  }

  usedBytes(): number {
    return this.#sql.databaseSize
  }

  /** Refuses `records` (QUOTA_EXCEEDED) when storing them would take the project past its budget. */
  admitRecords(records: readonly RecordDraft[]): void {
    let incoming = 0
    for (const record of records)
      incoming += utf8.encode(JSON.stringify(record)).byteLength + perRecordOverheadBytes
    const used = this.usedBytes()
    if (used + incoming > this.#limitBytes) throw this.#refusal(used, 'this push')
  }

  /** Refuses a small write the team needs (a claim, a release, the lock, activity) only past the reserve. */
  admitKeeping(): void {
    const used = this.usedBytes()
    if (used >= this.#limitBytes + this.reserveBytes) throw this.#refusal(used, 'this write')
  }

  #refusal(used: number, what: string): Refusal {
    const limit = this.#limitBytes
    return new Refusal(
      'QUOTA_EXCEEDED',
      `this project stores ${formatByteSize(used)} of its ${formatByteSize(limit)} budget, and ${what} would pass it; nothing was written. The server's operator raises MAX_PROJECT_BYTES (sangam serve --max-project-size; docs/server.md#limits); clients keep what they could not push until then`,
      { usedBytes: used, limit },
    )
  }
}
