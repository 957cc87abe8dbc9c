import { arbitrateClaim, planRelease } from '../../src/leases/core/arbitration.ts'
import { maxTtlMs, minTtlMs } from '../../src/leases/core/expiry.ts'
import { normalisePattern } from '../../src/leases/core/pattern.ts'
import type { ClaimResult, Lease } from '../../src/leases/protocol/lease.ts'
import { leaseGrantedRecordType } from '../../src/leases/protocol/records/lease-granted.ts'
import { leaseReleasedRecordType } from '../../src/leases/protocol/records/lease-released.ts'
import type { Random } from '../../src/shared/random.ts'
import { isSangamError } from '../../src/shared/sangam-error.ts'
import type {
  ReleaseResult,
  ServerClaimRequest,
  ServerReleaseRequest,
} from '../../src/sync/protocol/lease.ts'
import type { LeaseTable } from './lease-table.ts'
import type { Presence } from './presence.ts'
import { readProjectRow, recordFencingToken } from './project-row.ts'
import type { RecordLog } from './record-log.ts'
import { Refusal } from './refusal.ts'

export interface LeaseDeskParts {
  readonly storage: DurableObjectStorage
  readonly leases: LeaseTable
  readonly records: RecordLog
  readonly presence: Presence
  /** Names the records the desk appends. */
  readonly random: Random
}

/**
 * Lease arbitration for the project. Each claim reads the live leases, decides with the pure rule
 * the local arbiter also uses, writes the grant, issues fencing tokens and appends the lease
 * records, all in one synchronous storage transaction: the object runs one such block at a time,
 * so of any number of claimants racing for one pattern exactly one is granted. A refused claim
 * writes nothing (expired leases are only dropped by a grant or a release), so it costs no commit.
 */
export class LeaseDesk {
  readonly #parts: LeaseDeskParts

  constructor(parts: LeaseDeskParts) {
    this.#parts = parts
  }

  live(now: number): Lease[] {
    return this.#parts.leases.live(now)
  }

  claim(request: ServerClaimRequest, now: number): ClaimResult {
    if (request.ttlMs < minTtlMs || request.ttlMs > maxTtlMs)
      throw new Refusal('INVALID_REQUEST', `ttlMs must be between ${minTtlMs} and ${maxTtlMs}`)
    const claim = { ...request, patterns: request.patterns.map(normalise) }
    const { storage, leases, records, presence, random } = this.#parts
    return this.#transaction(() => {
      presence.touch([request.actor], now)
      const lastToken = readProjectRow(storage.sql)?.fencingToken ?? 0
      const decision = arbitrateClaim(leases.live(now), claim, now, request.autoLease, lastToken)
      if (!decision.granted) return { granted: false, conflicts: [...decision.conflicts] }
      leases.dropExpired(now)
      for (const lease of decision.tookOver) {
        leases.remove(lease.token)
        const payload = { lease, forceReason: claim.reason, takeover: true }
        const released = { id: serverRecordId(random), actor: request.actor, at: iso(now), payload }
        records.append([leaseReleasedRecordType.build(released)], now)
      }
      for (const { lease, renewed } of decision.leases) {
        leases.put(lease)
        const granted = {
          id: serverRecordId(random),
          actor: lease.holder,
          at: iso(now),
          payload: { lease, renewed },
        }
        records.append([leaseGrantedRecordType.build(granted)], now)
      }
      recordFencingToken(storage.sql, decision.lastToken)
      return {
        granted: true,
        leases: decision.leases.map(({ lease, renewed }) => ({ ...lease, renewed })),
        overrode: [...decision.overrode],
        tookOver: [...decision.tookOver],
      }
    })
  }

  release(request: ServerReleaseRequest, now: number): ReleaseResult {
    const release = { ...request, patterns: request.patterns?.map(normalise) ?? null }
    const { leases, records, presence, random } = this.#parts
    return this.#transaction(() => {
      presence.touch([request.actor], now)
      const plan = planRelease(leases.live(now), release, now)
      if (!plan.ok) {
        const lease = plan.problem === 'held-by-other' ? plan.lease : null
        return { ok: false, problem: plan.problem, pattern: plan.pattern, lease }
      }
      leases.dropExpired(now)
      for (const lease of plan.released) {
        leases.remove(lease.token)
        const forceReason = plan.forced.includes(lease) ? request.forceReason : null
        const released = {
          id: serverRecordId(random),
          actor: request.actor,
          at: iso(now),
          payload: { lease, forceReason },
        }
        records.append([leaseReleasedRecordType.build(released)], now)
      }
      return { ok: true, released: [...plan.released], forced: [...plan.forced] }
    })
  }

  /** One storage transaction; if it rolls back, the lease table's in-memory copy is dropped with it. */
  #transaction<T>(run: () => T): T {
    try {
      return this.#parts.storage.transactionSync(run)
    } catch (error) {
      this.#parts.leases.forget()
      throw error
    }
  }
}

function normalise(pattern: string): string {
  try {
    return normalisePattern(pattern)
  } catch (error) {
    if (isSangamError(error)) throw new Refusal('INVALID_REQUEST', error.message)
    throw error
  }
}

/** The server's record ids: `srv_` and a random UUID, a prefix no client id may take. */
function serverRecordId(random: Random): string {
  return `srv_${random.uuid()}`
}

function iso(now: number): string {
  return new Date(now).toISOString()
}
