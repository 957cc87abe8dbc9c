import { type Lease, leaseSchema } from '../../src/leases/protocol/lease.ts'

/**
 * The project's leases, stored, with the live ones also kept in memory: every claim reads them
 * all, and parsing each row again for every claim cost as much as the arbitration itself. The
 * object is the only writer, so the copy stays exact; after a failed transaction the desk calls
 * `forget` and the next read loads from storage again.
 */
export class LeaseTable {
  readonly #sql: SqlStorage
  #cache: Map<number, Lease> | null = null

  constructor(sql: SqlStorage) {
    this.#sql = sql
  }

  /** Live leases, oldest token first. */
  live(now: number): Lease[] {
    return [...this.#loaded().values()].filter((lease) => lease.expiresAt > now)
  }

  /** Drops expired leases; nothing ever reads them. */
  dropExpired(now: number): void {
    this.#sql.exec('DELETE FROM lease WHERE expires_at <= ?', now)
    for (const [token, lease] of this.#loaded()) if (lease.expiresAt <= now) this.#cache?.delete(token)
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
    this.#loaded().set(lease.token, lease)
  }

  remove(token: number): void {
    this.#sql.exec('DELETE FROM lease WHERE token = ?', token)
    this.#loaded().delete(token)
  }

  /** Drops the in-memory copy (after a transaction rolled back). */
  forget(): void {
    this.#cache = null
  }

  #loaded(): Map<number, Lease> {
    if (this.#cache !== null) return this.#cache
    const rows = this.#sql.exec<{ token: number; body: string }>(
      'SELECT token, body FROM lease ORDER BY token',
    )
    this.#cache = new Map([...rows].map((row) => [row.token, leaseSchema.parse(JSON.parse(row.body))]))
    return this.#cache
  }
}
