import { decideAcquire, decideTakeover } from '../../src/lanes/core/lock-arbitration.ts'
import {
  type LockAcquireAnswer,
  type LockAcquireRequest,
  type LockEvent,
  type LockHeartbeatRequest,
  type LockMainAnswer,
  type LockMainRequest,
  type LockReleaseRequest,
  type LockState,
  type LockTakeoverAnswer,
  type LockTakeoverRequest,
  lockEventSchema,
  lockHolderSchema,
  type ServerLockHolder,
  type TeamMain,
  teamMainSchema,
} from '../../src/lanes/protocol/integration-lock.ts'

/**
 * The team's integration lock: one row (the holder, or none, and the last fencing token issued)
 * and the history of its grants, releases and takeovers. Each request reads, decides with the pure
 * rule (`lanes/core/lock-arbitration.ts`) and writes in one synchronous storage transaction: the
 * object runs one such block at a time, so of any number of lanes racing for the lock on any
 * number of machines exactly one is granted. Tokens only grow, and survive restarts.
 */
export class LockDesk {
  readonly #storage: DurableObjectStorage

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage
  }

  state(now: number): LockState {
    const events = this.#storage.sql
      .exec<{ body: string }>(
        'SELECT body FROM (SELECT seq, body FROM integration_lock_event ORDER BY seq DESC LIMIT ?) ORDER BY seq',
        eventsShown,
      )
      .toArray()
      .map((row) => lockEventSchema.parse(JSON.parse(row.body)))
    return { holder: this.#row().holder, now, events, main: this.#main() }
  }

  /**
   * The team's main as sangam last moved it (D302). `publishing` and `published` are the lock
   * holder's alone (its token), so only the lane that holds the lock says where main is going;
   * `accept` is a person's, a compare-and-swap from the record they were shown.
   */
  recordMain(request: LockMainRequest, now: number): LockMainAnswer {
    return this.#storage.transactionSync(() => {
      const current = this.#main()
      const refused = { recorded: false, main: current }
      if (request.kind === 'accept') {
        if ((current?.commit ?? null) !== request.expected) return refused
        const main: TeamMain = {
          commit: request.commit,
          from: null,
          how: 'accepted',
          lane: request.lane,
          owner: request.owner,
          machine: request.machine,
          at: now,
        }
        this.#writeMain(main)
        return { recorded: true, main }
      }
      const { holder } = this.#row()
      if (holder === null || holder.token !== request.token) return refused
      if (request.kind === 'published') {
        if (current === null || current.commit !== request.commit) return refused
        const main = { ...current, from: null }
        this.#writeMain(main)
        return { recorded: true, main }
      }
      const main: TeamMain = {
        commit: request.to,
        from: request.from,
        how: 'published',
        lane: holder.lane,
        owner: holder.owner,
        machine: holder.machine,
        at: now,
      }
      this.#writeMain(main)
      return { recorded: true, main }
    })
  }

  acquire(request: LockAcquireRequest, now: number): LockAcquireAnswer {
    return this.#storage.transactionSync(() => {
      const { holder, lastToken } = this.#row()
      const decision = decideAcquire(holder, request, now, lastToken)
      if (!decision.granted) return decision
      this.#write(decision.holder, decision.holder.token)
      this.#log({ at: now, kind: 'acquired', holder: decision.holder, previous: null, reason: null })
      return decision
    })
  }

  heartbeat(request: LockHeartbeatRequest, now: number): { alive: boolean } {
    return this.#storage.transactionSync(() => {
      const { holder, lastToken } = this.#row()
      if (holder === null || holder.token !== request.token) return { alive: false }
      this.#write(
        { ...holder, task: request.task, heartbeatAt: Math.max(now, holder.heartbeatAt) },
        lastToken,
      )
      return { alive: true }
    })
  }

  release(request: LockReleaseRequest, now: number): { released: boolean } {
    return this.#storage.transactionSync(() => {
      const { holder, lastToken } = this.#row()
      if (holder === null || holder.token !== request.token) return { released: false }
      this.#write(null, lastToken)
      this.#log({ at: now, kind: 'released', holder, previous: null, reason: null })
      return { released: true }
    })
  }

  takeOver(request: LockTakeoverRequest, now: number): LockTakeoverAnswer {
    return this.#storage.transactionSync(() => {
      const { holder, lastToken } = this.#row()
      const decision = decideTakeover(holder, request, now, lastToken)
      if (!decision.taken) return decision
      this.#write(decision.holder, decision.holder.token)
      this.#log({
        at: now,
        kind: decision.previous === null ? 'acquired' : 'taken-over',
        holder: decision.holder,
        previous: decision.previous,
        reason: request.reason,
      })
      return decision
    })
  }

  #row(): { holder: ServerLockHolder | null; lastToken: number } {
    const row = this.#storage.sql
      .exec<{ holder: string | null; last_token: number }>(
        'SELECT holder, last_token FROM integration_lock WHERE lock = 1',
      )
      .toArray()[0]
    if (row === undefined) return { holder: null, lastToken: 0 }
    return {
      holder: row.holder === null ? null : lockHolderSchema.parse(JSON.parse(row.holder)),
      lastToken: row.last_token,
    }
  }

  #main(): TeamMain | null {
    const row = this.#storage.sql
      .exec<{ body: string }>('SELECT body FROM integration_main WHERE main = 1')
      .toArray()[0]
    return row === undefined ? null : teamMainSchema.parse(JSON.parse(row.body))
  }

  #writeMain(main: TeamMain): void {
    this.#storage.sql.exec(
      `INSERT INTO integration_main (main, body) VALUES (1, ?)
       ON CONFLICT (main) DO UPDATE SET body = excluded.body`,
      JSON.stringify(main),
    )
  }

  #write(holder: ServerLockHolder | null, lastToken: number): void {
    this.#storage.sql.exec(
      `INSERT INTO integration_lock (lock, holder, last_token) VALUES (1, ?, ?)
       ON CONFLICT (lock) DO UPDATE SET holder = excluded.holder, last_token = excluded.last_token`,
      holder === null ? null : JSON.stringify(holder),
      lastToken,
    )
  }

  #log(event: LockEvent): void {
    this.#storage.sql.exec(
      'INSERT INTO integration_lock_event (at, body) VALUES (?, ?)',
      event.at,
      JSON.stringify(event),
    )
    // The history is for people reading `status`/`log`; only the latest entries are kept.
    this.#storage.sql.exec(
      'DELETE FROM integration_lock_event WHERE seq <= (SELECT MAX(seq) FROM integration_lock_event) - ?',
      eventsKept,
    )
  }
}

const eventsShown = 20
const eventsKept = 200
