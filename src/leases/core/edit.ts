import type { Actor } from '../../identity/protocol/actor.ts'
import type { Lease, LeaseSettings } from '../protocol/lease.ts'
import { isSameActor, leaseCovers } from './actor.ts'
import { describeEditBlock } from './describe.ts'
import { liveLeases } from './expiry.ts'
import { literalPattern } from './pattern.ts'

/**
 * Whether a repository-relative path matches a lease pattern. Injected (picomatch in services) so
 * that core stays free of packages; implementations compare case-insensitively.
 */
export type PathMatcher = (pattern: string, path: string) => boolean

export interface EditOutcome {
  readonly decision: 'allow' | 'deny'
  /** Why it was denied, addressed to the agent; empty when allowed. */
  readonly reason: string
  /** Collisions that did not block (another session's auto-lease under `advise` or `warn`). */
  readonly warnings: readonly string[]
  /** The path checked; null when the file lies outside the project (never leased, never denied). */
  readonly path: string | null
  /** The auto-lease to take or renew for the editor: a pattern matching exactly `path`. */
  readonly autoLease: { readonly pattern: string; readonly ttlMs: number } | null
  /** Auto-leases collided with under `warn`: recorded so every session's brief carries them. */
  readonly collisions: readonly Lease[]
}

/**
 * Decides one edit by `actor` of a file known by `paths` (its repository-relative spellings: the
 * real path first, then the path as the tool named it when a symlink differs; empty when outside
 * the project). Another actor's claim over any spelling denies; another session's auto-lease
 * denies, warns or advises by the project's rung, or is ignored under `off`. An allowed edit of a
 * file nobody else holds takes (or renews) an auto-lease on it, unless auto-leases are off or the
 * editor's own claim already covers it.
 */
export function decideEdit(
  leases: readonly Lease[],
  actor: Actor,
  paths: readonly string[],
  now: number,
  settings: LeaseSettings,
  matches: PathMatcher,
): EditOutcome {
  const path = paths[0]
  if (path === undefined) return allowOutside
  const live = liveLeases(leases, now)
  const holding = (lease: Lease): boolean => paths.some((candidate) => matches(lease.pattern, candidate))
  const others = live.filter(
    (lease) =>
      !leaseCovers(lease.holder, actor) &&
      (lease.kind === 'claim' || settings.autoLease !== 'off') &&
      holding(lease),
  )
  const blocking = others.filter((lease) => lease.kind === 'claim' || settings.autoLease === 'refuse')
  const first = blocking[0]
  if (first !== undefined) {
    const more = blocking.length > 1 ? ` (${blocking.length - 1} more lease(s) also cover it)` : ''
    return { ...deny, reason: `${describeEditBlock(path, first, now)}${more}`, path }
  }
  const warnings = others.map((lease) => describeEditBlock(path, lease, now))
  const ownClaim = live.some(
    (lease) => lease.kind === 'claim' && isSameActor(lease.holder, actor) && holding(lease),
  )
  const takeAutoLease = settings.autoLease !== 'off' && others.length === 0 && !ownClaim
  return {
    decision: 'allow',
    reason: '',
    warnings,
    path,
    autoLease: takeAutoLease ? { pattern: literalPattern(path), ttlMs: settings.autoLeaseTtlMs } : null,
    collisions: settings.autoLease === 'warn' ? others : [],
  }
}

/** The outcome for a path outside the project: always allowed, nothing recorded. */
export const allowOutside: EditOutcome = {
  decision: 'allow',
  reason: '',
  warnings: [],
  path: null,
  autoLease: null,
  collisions: [],
}

const deny: Omit<EditOutcome, 'reason' | 'path'> = {
  decision: 'deny',
  warnings: [],
  autoLease: null,
  collisions: [],
}
