import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/db.ts'
import {
  acquireLockRow,
  readLock,
  releaseLockRow,
  replaceLockRow,
  touchLockRow,
} from '../store/integration-lock-table.ts'
import type { IntegrationLock, LockAnswer, LockHolder } from './integration-lock.ts'

/**
 * The integration lock of one machine: a row of the project's database, granted in an IMMEDIATE
 * transaction, with a heartbeat (a lease: `sync --takeover` may take a silent one) and a token
 * that increases with every grant, so a holder that was taken over cannot release its successor.
 */
export class StoreIntegrationLock implements IntegrationLock {
  readonly #db: Db
  readonly #clock: Clock

  constructor(db: Db, clock: Clock) {
    this.#db = db
    this.#clock = clock
  }

  async acquire(input: { lane: string; owner: string; task: string | null }): Promise<LockAnswer> {
    const answer = acquireLockRow(this.#db, input, this.#clock.now())
    return answer.granted
      ? { granted: true, holder: answer.holder }
      : { granted: false, holder: answer.holder }
  }

  async heartbeat(holder: LockHolder): Promise<boolean> {
    return touchLockRow(this.#db, holder.token, holder.task, this.#clock.now())
  }

  async release(holder: LockHolder): Promise<void> {
    releaseLockRow(this.#db, holder.token)
  }

  async current(): Promise<LockHolder | null> {
    return readLock(this.#db)
  }

  async takeOver(input: { lane: string; owner: string; reason: string }): Promise<LockHolder> {
    return replaceLockRow(this.#db, { lane: input.lane, owner: input.owner, task: null }, this.#clock.now())
  }
}
