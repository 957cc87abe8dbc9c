import type { Actor } from '../../identity/protocol/actor.ts'
import type { ReleaseDecision, ReleaseRequest } from '../../leases/core/arbitration.ts'
import { decideEdit, type EditOutcome } from '../../leases/core/edit.ts'
import { autoLeaseReason } from '../../leases/core/settings.ts'
import type { ClaimResult, Lease } from '../../leases/protocol/lease.ts'
import type { ClaimInput, LeaseArbiter } from '../../leases/services/arbiter.ts'
import { matchLeasePath } from '../../leases/services/matcher.ts'
import { readLeaseSettings } from '../../leases/services/settings.ts'
import { mirrorGrant, mirrorRelease } from '../../leases/store/lease-mirror.ts'
import { appendLeaseLog, readLeases } from '../../leases/store/lease-table.ts'
import type { Clock } from '../../shared/clock.ts'
import { type Logger, silentLogger } from '../../shared/logger.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import type { SyncAnswer, SyncEndpoint, SyncHttpClient } from './http-client.ts'
import { refusalError } from './refusal.ts'
import { isUnreachable } from './unreachable.ts'

export interface ServerArbiterOptions {
  /** How long a claim or release waits for the server before it is reported unconfirmed. */
  readonly timeoutMs?: number | undefined
  /** How long an edit's auto-lease waits: it runs inside a hook with a hard budget, and fails open. */
  readonly editTimeoutMs?: number | undefined
  readonly log?: Logger | undefined
}

/**
 * Leases while attached to a team server: the project's Durable Object decides, with the same pure
 * rule the local arbiter runs. What it grants or releases is written to this replica's lease
 * mirror at once, so the hooks here see it before the record stream brings it back. No answer is
 * never a grant: a claim or release the server did not confirm throws UNCONFIRMED (exit 6).
 *
 * An edit is decided on the mirror first (a denial needs no network); only an edit that takes an
 * auto-lease asks the server, within the edit budget. If the server cannot be reached the edit is
 * still allowed (the hook fails open) without an auto-lease, and the hook says so.
 */
export class ServerLeaseArbiter implements LeaseArbiter {
  readonly #db: Db
  readonly #clock: Clock
  readonly #endpoint: SyncEndpoint
  readonly #timeoutMs: number
  readonly #editTimeoutMs: number
  readonly #log: Logger

  constructor(db: Db, endpoint: SyncEndpoint, clock: Clock, options: ServerArbiterOptions = {}) {
    this.#db = db
    this.#clock = clock
    this.#endpoint = endpoint
    this.#timeoutMs = options.timeoutMs ?? 10_000
    this.#editTimeoutMs = options.editTimeoutMs ?? 700
    this.#log = (options.log ?? silentLogger).child({ component: 'server-arbiter' })
  }

  async claim(request: ClaimInput): Promise<ClaimResult> {
    if (request.reason.trim() === '') throw new SangamError(ErrorCode.InvalidInput, 'a claim needs a reason')
    if (request.patterns.length === 0)
      throw new SangamError(ErrorCode.InvalidInput, 'a claim needs a pattern')
    const settings = readLeaseSettings(this.#db)
    const result = await this.#ask('claim', this.#timeoutMs, (http) =>
      http.claim({
        actor: request.actor,
        patterns: [...request.patterns],
        reason: request.reason.trim(),
        kind: 'claim',
        ttlMs: request.ttlMs ?? settings.claimTtlMs,
        autoLease: settings.autoLease,
      }),
    )
    if (result.granted)
      this.#mirror(() => {
        for (const lease of result.tookOver) mirrorRelease(this.#db, lease)
        for (const lease of result.leases) mirrorGrant(this.#db, withoutRenewed(lease))
      })
    return result
  }

  async release(request: ReleaseRequest): Promise<ReleaseDecision> {
    if (request.forceReason !== null && request.forceReason.trim() === '') {
      throw new SangamError(ErrorCode.InvalidInput, 'a forced release needs a reason')
    }
    const result = await this.#ask('release', this.#timeoutMs, (http) =>
      http.release({
        actor: request.actor,
        patterns: request.patterns === null ? null : [...request.patterns],
        forceReason: request.forceReason === null ? null : request.forceReason.trim(),
      }),
    )
    if (result.ok) {
      this.#mirror(() => {
        for (const lease of result.released) mirrorRelease(this.#db, lease)
      })
      return result
    }
    if (result.problem === 'held-by-other' && result.lease !== null)
      return { ok: false, problem: 'held-by-other', pattern: result.pattern, lease: result.lease }
    return { ok: false, problem: 'not-found', pattern: result.pattern }
  }

  async recordEdit(actor: Actor, paths: readonly string[]): Promise<EditOutcome> {
    const now = this.#clock.now()
    const settings = readLeaseSettings(this.#db)
    const live = readLeases(this.#db, now)
    const outcome = decideEdit(live, actor, paths, now, settings, matchLeasePath)
    if (outcome.decision === 'deny' || outcome.autoLease === null)
      return this.#withCollisions(outcome, actor, now)
    const { pattern, ttlMs } = outcome.autoLease
    const result = await this.#ask('claim', this.#editTimeoutMs, (http) =>
      http.claim({
        actor,
        patterns: [pattern],
        reason: autoLeaseReason,
        kind: 'auto',
        ttlMs,
        autoLease: settings.autoLease,
      }),
    )
    if (result.granted) {
      this.#mirror(() => {
        for (const lease of result.leases) mirrorGrant(this.#db, withoutRenewed(lease))
      })
      return this.#withCollisions(outcome, actor, now)
    }
    // The mirror was behind the server: learn what is in the way and decide again on that.
    const blocking = result.conflicts.map((conflict) => conflict.lease)
    this.#mirror(() => {
      for (const lease of blocking) mirrorGrant(this.#db, lease)
    })
    const again = decideEdit([...live, ...blocking], actor, paths, now, settings, matchLeasePath)
    return this.#withCollisions({ ...again, autoLease: null }, actor, now)
  }

  async releaseSessionLeases(sessionId: string): Promise<readonly Lease[]> {
    if (!readLeaseSettings(this.#db).releaseOnSessionEnd) return []
    const { leases } = await this.#ask('release', this.#timeoutMs, (http) => http.leases())
    const holders = new Map<string, Actor>()
    for (const lease of leases) {
      if (lease.holder.sessionId === sessionId) holders.set(JSON.stringify(lease.holder), lease.holder)
    }
    const ended: Lease[] = []
    for (const actor of holders.values()) {
      const result = await this.#ask('release', this.#timeoutMs, (http) =>
        http.release({ actor, patterns: null, forceReason: null }),
      )
      if (result.ok) ended.push(...result.released)
    }
    this.#mirror(() => {
      for (const lease of ended) mirrorRelease(this.#db, lease)
    })
    return ended
  }

  /** Collisions under `warn` are written to this replica's lease log (the server keeps no such log). */
  #withCollisions(outcome: EditOutcome, actor: Actor, now: number): EditOutcome {
    if (outcome.collisions.length === 0) return outcome
    this.#mirror(() => {
      for (const lease of outcome.collisions) {
        appendLeaseLog(this.#db, {
          at: now,
          action: 'collision',
          pattern: lease.pattern,
          token: lease.token,
          holder: lease.holder,
          by: actor,
          reason: lease.reason,
        })
      }
    })
    return outcome
  }

  /**
   * The server's answer is the truth; the mirror is a copy the record stream also brings. A mirror
   * that cannot be written right now (locked past its timeout) is left to the stream.
   */
  #mirror(write: () => void): void {
    try {
      this.#db.transaction(write).immediate()
    } catch (error) {
      this.#log.warn('lease mirror not updated; the record stream will', { error: (error as Error).message })
    }
  }

  /**
   * Loaded on first use: the edit hook builds an arbiter for every edit it records, and the HTTP
   * client's response schemas (zod) are only worth loading when a request is made.
   */
  async #client(timeoutMs: number): Promise<SyncHttpClient> {
    const { SyncHttpClient } = await import('./http-client.ts')
    return new SyncHttpClient(this.#endpoint, { timeoutMs })
  }

  async #ask<T>(
    what: 'claim' | 'release',
    timeoutMs: number,
    request: (http: SyncHttpClient) => Promise<SyncAnswer<T>>,
  ): Promise<T> {
    const http = await this.#client(timeoutMs)
    let answer: SyncAnswer<T>
    try {
      answer = await request(http)
    } catch (error) {
      if (!isUnreachable(error)) throw error
      throw new SangamError(
        ErrorCode.Unconfirmed,
        `${(error as Error).message}. The ${what} is unconfirmed: nothing was granted or released; try again once the server is reachable`,
        { server: this.#endpoint.url },
        { cause: error },
      )
    }
    if (answer.ok) return answer.value
    throw refusalError(answer, { url: this.#endpoint.url, action: what, arbitrated: true })
  }
}

function withoutRenewed(lease: Lease & { renewed: boolean }): Lease {
  const { renewed: _renewed, ...rest } = lease
  return rest
}
