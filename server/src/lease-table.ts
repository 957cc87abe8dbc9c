import { type Lease, leaseSchema } from '../../src/protocol/lease.ts'

/** The project's leases. Expired ones are dropped as the desk works; nothing ever reads them. */
export class LeaseTable {
  readonly #sql: SqlStorage

  constructor(sql: SqlStorage) {
    this.#sql = sql
  }

  /** Live leases, oldest token first. */
  live(now: number): Lease[] {
    return this.#sql
      .exec<{ body: string }>('SELECT body FROM lease WHERE expires_at > ? ORDER BY token', now)
      .toArray()
      .map((row) => leaseSchema.parse(JSON.parse(row.body)))
  }

  dropExpired(now: number): void {
    this.#sql.exec('DELETE FROM lease WHERE expires_at <= ?', now)
  }

  /** Writes a new lease or a renewal (same token). */
  put(lease: Lease): void {
    this.#sql.exec(
      `INSERT INTO lease (token, body, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (token) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at`,
      lease.token,
      JSON.stringify(lease),
      lease.expiresAt,
    )
  }

  remove(token: number): void {
    this.#sql.exec('DELETE FROM lease WHERE token = ?', token)
  }
}
