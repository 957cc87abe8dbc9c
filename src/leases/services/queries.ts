import type { Db } from '../../store/database.ts'
import { patternsOverlap } from '../core/overlap.ts'
import type { Lease, LeaseLogAction, LeaseLogEntry, LeaseSettings } from '../protocol/lease.ts'
import { readLeaseLog, readLeases } from '../store/lease-table.ts'
import { matchLeasePath } from './matcher.ts'
import { readLeaseSettings } from './settings.ts'

/**
 * Reads that decide nothing, straight from the replica: who holds what, and what the team should
 * know happened (forced releases, collisions, leases ended with their session).
 */

/** What the team is shown beside the live leases. */
export const notableActions: readonly LeaseLogAction[] = [
  'force-released',
  'collision',
  'session-ended',
  'taken-over',
]

/** How far back `leases` and the brief look for notable lease history. */
export const notableWindowMs = 24 * 60 * 60 * 1000

export interface LeaseOverview {
  readonly leases: readonly Lease[]
  /** Forced releases, collisions, takeovers and session ends of the last 24 hours, newest first. */
  readonly history: readonly LeaseLogEntry[]
  readonly settings: LeaseSettings
}

export function leaseOverview(db: Db, now: number): LeaseOverview {
  return {
    leases: readLeases(db, now),
    history: notableLeaseHistory(db, now),
    settings: readLeaseSettings(db),
  }
}

/**
 * The live leases covering a file, by any of its repository-relative spellings
 * (`repositoryPaths`); or, asked with a glob, the live leases whose patterns overlap it.
 */
export function leasesCovering(
  db: Db,
  target: { readonly paths: readonly string[] } | { readonly pattern: string },
  now: number,
): Lease[] {
  const leases = readLeases(db, now)
  if ('pattern' in target) return leases.filter((lease) => patternsOverlap(lease.pattern, target.pattern))
  return leases.filter((lease) => target.paths.some((path) => matchLeasePath(lease.pattern, path)))
}

export function notableLeaseHistory(db: Db, now: number, limit = 20): LeaseLogEntry[] {
  return readLeaseLog(db, now - notableWindowMs, notableActions, limit)
}
