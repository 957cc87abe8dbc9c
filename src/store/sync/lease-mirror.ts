import type { Lease } from '../../protocol/lease.ts'
import type { Db } from '../db.ts'
import { deleteLease, upsertLease, writeLastToken } from '../leases/lease-table.ts'

/**
 * While a replica is attached, its `lease` table mirrors the server's leases: the server decides,
 * and this table is what the hooks read (so they decide offline and fail open). Tokens are the
 * server's, which is why a grant first clears any row holding its token.
 */

/** A lease the server granted or renewed. */
export function mirrorGrant(db: Db, lease: Lease): void {
  deleteLease(db, lease.token)
  upsertLease(db, lease)
  writeLastToken(db, lease.token)
}

/** A lease the server released. */
export function mirrorRelease(db: Db, lease: Lease): void {
  deleteLease(db, lease.token)
}

/**
 * Replaces every lease with the server's live list: on attaching (leases taken before were moved to
 * the server or reported) and on each connection, which also drops what expired meanwhile.
 */
export function replaceMirror(db: Db, leases: readonly Lease[], fencingToken: number): void {
  db.prepare('DELETE FROM lease').run()
  for (const lease of leases) upsertLease(db, lease)
  writeLastToken(db, fencingToken)
}
