import type { Actor } from '../../identity/protocol/actor.ts'
import type { AutoLeaseRung, ClaimRequest, Lease, LeaseConflict } from '../protocol/lease.ts'
import { isSameActor, leaseCovers } from './actor.ts'
import { liveLeases } from './expiry.ts'
import { patternsOverlap } from './overlap.ts'
import { patternKey } from './pattern.ts'

/**
 * The arbitration rule, pure: `(leases, request, now) → decision`. The local arbiter runs it inside
 * one IMMEDIATE SQLite transaction; a team server will run the same rule in its Durable Object.
 */

/** A lease as granted: new (`renewed` false, a fresh fencing token) or the actor's own, extended. */
export interface GrantedLease {
  readonly lease: Lease
  readonly renewed: boolean
}

export type ClaimDecision =
  | {
      readonly granted: true
      readonly leases: readonly GrantedLease[]
      /** Other sessions' auto-leases the claim went over (rung `advise` or `warn`). */
      readonly overrode: readonly Lease[]
      /** The claiming human's own agents' auto-leases the claim ended (see `takesOver`). */
      readonly tookOver: readonly Lease[]
      /** The last fencing token issued after this grant. */
      readonly lastToken: number
    }
  | { readonly granted: false; readonly conflicts: readonly LeaseConflict[] }

/**
 * Grants every pattern of `request` or none. A pattern is refused when it overlaps a live lease
 * whose holder does not cover the requester (see `leaseCovers`): always for claims, and for
 * another session's auto-lease when the auto-lease rung is `refuse` (under `off` auto-leases are
 * ignored; under `advise`/`warn` the claim goes over them and says so). A human's claim takes over
 * the auto-leases of the agent sessions acting for that human, under any rung but `off`: those
 * leases end and the claim is granted (see `takesOver`). Claiming a pattern the actor already holds
 * renews that lease: same token, new expiry and reason.
 */
export function arbitrateClaim(
  leases: readonly Lease[],
  request: ClaimRequest,
  now: number,
  rung: AutoLeaseRung,
  lastToken: number,
): ClaimDecision {
  const live = liveLeases(leases, now)
  const conflicts: LeaseConflict[] = []
  const overrode = new Set<Lease>()
  const tookOver = new Set<Lease>()
  for (const pattern of request.patterns) {
    for (const lease of live) {
      if (leaseCovers(lease.holder, request.actor) || !patternsOverlap(lease.pattern, pattern)) continue
      if (lease.kind === 'auto' && rung === 'off') continue
      if (takesOver(request, lease)) tookOver.add(lease)
      else if (lease.kind === 'auto' && rung !== 'refuse' && request.kind === 'claim') overrode.add(lease)
      else conflicts.push({ pattern, lease })
    }
  }
  if (conflicts.length > 0) return { granted: false, conflicts }
  const granted = grantLeases(live, request, now, lastToken)
  return {
    granted: true,
    leases: granted.leases,
    overrode: [...overrode],
    tookOver: [...tookOver],
    lastToken: granted.lastToken,
  }
}

/**
 * Whether a claim takes over `lease` instead of being refused by it: the claimant is a human alone
 * (the CLI, no agent session), the lease is an auto-lease, and its holder is one of that human's
 * own agent sessions. The session edits for the human, so the human need not wait for it; its
 * lease ends, and the human's lease covers the session's further edits. An agent's deliberate
 * claim is not taken over: that takes `release --force`, with a reason.
 */
export function takesOver(request: ClaimRequest, lease: Lease): boolean {
  return (
    request.kind === 'claim' &&
    request.actor.vendor === null &&
    lease.kind === 'auto' &&
    lease.holder.vendor !== null &&
    lease.holder.human === request.actor.human
  )
}

/** Takes or renews one lease per distinct pattern key, with no conflict check (the caller did it). */
export function grantLeases(
  live: readonly Lease[],
  request: ClaimRequest,
  now: number,
  lastToken: number,
): { leases: GrantedLease[]; lastToken: number } {
  let token = lastToken
  const leases: GrantedLease[] = []
  const seen = new Set<string>()
  for (const pattern of request.patterns) {
    const key = patternKey(pattern)
    if (seen.has(key)) continue
    seen.add(key)
    const own = live.find(
      (lease) => isSameActor(lease.holder, request.actor) && patternKey(lease.pattern) === key,
    )
    if (own !== undefined) {
      leases.push({ lease: renew(own, request, now), renewed: true })
      continue
    }
    token += 1
    const lease: Lease = {
      pattern,
      holder: request.actor,
      kind: request.kind,
      reason: request.reason,
      token,
      takenAt: now,
      renewedAt: now,
      expiresAt: now + request.ttlMs,
    }
    leases.push({ lease, renewed: false })
  }
  return { leases, lastToken: token }
}

/** A claim turns an auto-lease into a claim; an edit never shortens or downgrades a claim. */
function renew(own: Lease, request: ClaimRequest, now: number): Lease {
  if (own.kind === 'claim' && request.kind === 'auto') {
    return { ...own, renewedAt: now, expiresAt: Math.max(own.expiresAt, now + request.ttlMs) }
  }
  return {
    ...own,
    kind: request.kind,
    reason: request.reason,
    renewedAt: now,
    expiresAt: now + request.ttlMs,
  }
}

export interface ReleaseRequest {
  readonly actor: Actor
  /** Normalised patterns to release; null releases every lease the actor holds. */
  readonly patterns: readonly string[] | null
  /** Present when a human overrides the holder; recorded with the lease log. */
  readonly forceReason: string | null
}

export type ReleaseDecision =
  | { readonly ok: true; readonly released: readonly Lease[]; readonly forced: readonly Lease[] }
  | { readonly ok: false; readonly problem: 'not-found'; readonly pattern: string }
  | { readonly ok: false; readonly problem: 'held-by-other'; readonly pattern: string; readonly lease: Lease }

/**
 * Only the holder releases its lease; with a force reason anyone may release the leases on a named
 * pattern (never "everything"). Patterns compare by key, so `SRC/` releases `src/**`. All or none:
 * one pattern that cannot be released releases nothing.
 */
export function planRelease(leases: readonly Lease[], request: ReleaseRequest, now: number): ReleaseDecision {
  const live = liveLeases(leases, now)
  const mine = (lease: Lease): boolean => isSameActor(lease.holder, request.actor)
  if (request.patterns === null) return { ok: true, released: live.filter(mine), forced: [] }
  const released: Lease[] = []
  const forced: Lease[] = []
  for (const pattern of request.patterns) {
    const key = patternKey(pattern)
    const named = live.filter((lease) => patternKey(lease.pattern) === key)
    if (named.length === 0) return { ok: false, problem: 'not-found', pattern }
    const others = named.filter((lease) => !mine(lease))
    const first = others[0]
    if (first !== undefined && request.forceReason === null && !named.some(mine)) {
      return { ok: false, problem: 'held-by-other', pattern, lease: first }
    }
    for (const lease of named) {
      if (released.includes(lease)) continue
      if (mine(lease)) released.push(lease)
      else if (request.forceReason !== null) {
        released.push(lease)
        forced.push(lease)
      }
    }
  }
  return { ok: true, released, forced }
}

/** The leases a session holds, which end with it when the project says so. */
export function sessionLeases(leases: readonly Lease[], sessionId: string, now: number): Lease[] {
  return liveLeases(leases, now).filter((lease) => lease.holder.sessionId === sessionId)
}
