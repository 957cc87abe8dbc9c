import type { Actor } from '../../identity/protocol/actor.ts'
import type { Db } from '../../store/db.ts'
import type { Lease, LeaseLogAction } from '../protocol/lease.ts'
import { appendLeaseLog, deleteLease, upsertLease, writeLastToken } from './lease-table.ts'

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

/** The lease log's line for a lease record; `record.actor` is who did it (holder or releaser). */
export function logLeaseChange(
  db: Db,
  record: { readonly at: string; readonly actor: Actor },
  action: LeaseLogAction,
  lease: Lease,
  forceReason: string | null,
): void {
  appendLeaseLog(db, {
    at: Date.parse(record.at),
    action,
    pattern: lease.pattern,
    token: lease.token,
    holder: lease.holder,
    by: record.actor,
    reason: forceReason ?? lease.reason,
  })
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
