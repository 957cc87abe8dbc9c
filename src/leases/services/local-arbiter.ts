import type { Actor } from '../../identity/protocol/actor.ts'
import type { Clock } from '../../shared/clock.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { translateSqliteError } from '../../store/database.ts'
import { arbitrateClaim, grantLeases, planRelease, sessionLeases } from '../core/arbitration.ts'
import { decideEdit, type EditOutcome } from '../core/edit.ts'
import { autoLeaseReason } from '../core/settings.ts'
import type { ClaimResult, Lease, LeaseLogAction } from '../protocol/lease.ts'
import {
  appendLeaseLog,
  deleteExpiredLeases,
  deleteLease,
  inLeaseTransaction,
  readLastToken,
  readLeases,
  upsertLease,
  writeLastToken,
} from '../store/lease-table.ts'
import type { ClaimInput, LeaseArbiter } from './arbiter.ts'
import { matchLeasePath } from './matcher.ts'
import { readLeaseSettings } from './settings.ts'

export interface LocalArbiterOptions {
  /**
   * How long a claim, release or session end waits for the write lock. Generous, so that a burst
   * of claimers (200 agents at once) queues instead of failing with STORE_BUSY.
   */
  readonly busyTimeoutMs?: number | undefined
  /** How long an edit check waits: it runs inside a hook with a hard time budget, and fails open. */
  readonly editBusyTimeoutMs?: number | undefined
}

/**
 * Arbitrates on this machine's replica. Every decision is one IMMEDIATE transaction: purge what
 * expired, read the live leases, decide with the pure rule from core/, write, commit. SQLite
 * serialises writers, so concurrent claimers (other processes, other connections) see each
 * other's grants: exactly one of several overlapping claims wins.
 */
export class LocalLeaseArbiter implements LeaseArbiter {
  readonly #db: Db
  readonly #clock: Clock
  readonly #busyTimeoutMs: number
  readonly #editBusyTimeoutMs: number

  constructor(db: Db, clock: Clock, options: LocalArbiterOptions = {}) {
    this.#db = db
    this.#clock = clock
    this.#busyTimeoutMs = options.busyTimeoutMs ?? 120_000
    this.#editBusyTimeoutMs = options.editBusyTimeoutMs ?? 1_000
  }

  async claim(request: ClaimInput): Promise<ClaimResult> {
    if (request.reason.trim() === '') throw new SangamError(ErrorCode.InvalidInput, 'a claim needs a reason')
    if (request.patterns.length === 0)
      throw new SangamError(ErrorCode.InvalidInput, 'a claim needs a pattern')
    return this.#transaction(this.#busyTimeoutMs, (now) => {
      const settings = readLeaseSettings(this.#db)
      const decision = arbitrateClaim(
        readLeases(this.#db, now),
        {
          actor: request.actor,
          patterns: [...request.patterns],
          reason: request.reason.trim(),
          kind: 'claim',
          ttlMs: request.ttlMs ?? settings.claimTtlMs,
        },
        now,
        settings.autoLease,
        readLastToken(this.#db),
      )
      if (!decision.granted) return { granted: false, conflicts: [...decision.conflicts] }
      for (const lease of decision.tookOver) {
        deleteLease(this.#db, lease.token)
        this.#log(now, 'taken-over', lease, request.actor, request.reason.trim())
      }
      for (const { lease, renewed } of decision.leases) {
        upsertLease(this.#db, lease)
        this.#log(now, renewed ? 'renewed' : 'granted', lease, request.actor, lease.reason)
      }
      writeLastToken(this.#db, decision.lastToken)
      return {
        granted: true,
        leases: decision.leases.map(({ lease, renewed }) => ({ ...lease, renewed })),
        overrode: [...decision.overrode],
        tookOver: [...decision.tookOver],
      }
    })
  }

  async release(request: Parameters<LeaseArbiter['release']>[0]): ReturnType<LeaseArbiter['release']> {
    if (request.forceReason !== null && request.forceReason.trim() === '') {
      throw new SangamError(ErrorCode.InvalidInput, 'a forced release needs a reason')
    }
    return this.#transaction(this.#busyTimeoutMs, (now) => {
      const decision = planRelease(readLeases(this.#db, now), request, now)
      if (!decision.ok) return decision
      for (const lease of decision.released) {
        deleteLease(this.#db, lease.token)
        const forced = decision.forced.includes(lease)
        const reason = forced ? (request.forceReason ?? '').trim() : lease.reason
        this.#log(now, forced ? 'force-released' : 'released', lease, request.actor, reason)
      }
      return decision
    })
  }

  async recordEdit(actor: Actor, paths: readonly string[]): Promise<EditOutcome> {
    return this.#transaction(this.#editBusyTimeoutMs, (now) => {
      const settings = readLeaseSettings(this.#db)
      const live = readLeases(this.#db, now)
      const outcome = decideEdit(live, actor, paths, now, settings, matchLeasePath)
      if (outcome.autoLease !== null) {
        const { pattern, ttlMs } = outcome.autoLease
        const request = { actor, patterns: [pattern], reason: autoLeaseReason, kind: 'auto' as const, ttlMs }
        const granted = grantLeases(live, request, now, readLastToken(this.#db))
        for (const { lease } of granted.leases) upsertLease(this.#db, lease)
        writeLastToken(this.#db, granted.lastToken)
      }
      for (const lease of outcome.collisions) this.#log(now, 'collision', lease, actor, lease.reason)
      return outcome
    })
  }

  async releaseSessionLeases(sessionId: string): Promise<readonly Lease[]> {
    return this.#transaction(this.#busyTimeoutMs, (now) => {
      if (!readLeaseSettings(this.#db).releaseOnSessionEnd) return []
      const ended = sessionLeases(readLeases(this.#db, now), sessionId, now)
      for (const lease of ended) {
        deleteLease(this.#db, lease.token)
        this.#log(now, 'session-ended', lease, lease.holder, lease.reason)
      }
      return ended
    })
  }

  async #transaction<T>(busyTimeoutMs: number, work: (now: number) => T): Promise<T> {
    try {
      return await inLeaseTransaction(this.#db, busyTimeoutMs, () => {
        const now = this.#clock.now()
        deleteExpiredLeases(this.#db, now)
        return work(now)
      })
    } catch (error) {
      throw translateSqliteError(error, this.#db.name)
    }
  }

  #log(now: number, action: LeaseLogAction, lease: Lease, by: Actor, reason: string): void {
    appendLeaseLog(this.#db, {
      at: now,
      action,
      pattern: lease.pattern,
      token: lease.token,
      holder: lease.holder,
      by,
      reason,
    })
  }
}
