import type { MainOutside } from '../lanes/core/main-record.ts'
import type { LockKept } from '../lanes/services/lock-keeper.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'
import type { Db } from '../store/database.ts'
import type { Service } from './service.ts'

export interface LaneLockServiceOptions {
  /** Opens the connection the lock is read and renewed on (its own, beside the other services'). */
  readonly openDb: () => Db
  /** One look at the lock (lanes/services/lock-keeper.ts); null when the project has no lanes. */
  readonly keep: (db: Db) => Promise<LockKept | null>
  readonly log: Logger
  /** Time between the end of one look and the start of the next. */
  readonly intervalMs?: number | undefined
  /** Each finished look (tests wait on it). */
  readonly onKept?: ((kept: LockKept | null) => void) | undefined
  /** Main against the record of where sangam last moved it (D300); null when in step or no lanes. */
  readonly lookAtMain?: ((db: Db) => Promise<MainOutside | null>) | undefined
  /** Told once per main moved outside sangam (each new commit again). */
  readonly onMainOutside?: ((outside: MainOutside) => void) | undefined
}

export const laneLockIntervalMs = 60_000

/**
 * The daemon keeps the integration lock of a lane at work alive (D246): a look once a minute,
 * renewing the heartbeat of a holder whose task is active and whose agent is alive or whose
 * worktree changed (keepLaneLock). A look that fails (no main branch, the team server
 * unreachable) is logged once per kind and the next one tries again. Each look also checks main
 * against the record of where sangam last moved it, and says once per commit when it moved
 * outside sangam (D300).
 */
export class LaneLockService implements Service {
  readonly id = 'lane-lock'
  readonly #options: LaneLockServiceOptions
  readonly #log: Logger
  readonly #loop = new PeriodicLoop()
  #lastFailure: string | null = null
  #lastOutside: string | null = null

  constructor(options: LaneLockServiceOptions) {
    this.#options = options
    this.#log = options.log.child({ component: this.id })
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }

  async #run(): Promise<void> {
    const db = this.#options.openDb()
    try {
      await this.#loop.every(this.#options.intervalMs ?? laneLockIntervalMs, () => this.#look(db))
    } finally {
      db.close()
    }
  }

  async #look(db: Db): Promise<void> {
    try {
      const kept = await this.#options.keep(db)
      if (kept?.renewed)
        this.#log.debug('integration lock heartbeat renewed', { lane: kept.lane, why: kept.why })
      this.#lastFailure = null
      await this.#lookAtMain(db)
      this.#options.onKept?.(kept)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (message !== this.#lastFailure) this.#log.warn('integration lock look failed', { error: message })
      this.#lastFailure = message
    }
  }

  async #lookAtMain(db: Db): Promise<void> {
    const outside = (await this.#options.lookAtMain?.(db)) ?? null
    const key = outside === null ? null : `${outside.where}:${outside.commit ?? 'gone'}`
    if (outside !== null && key !== this.#lastOutside) {
      this.#log.warn(`${outside.branch} moved outside sangam`, {
        commit: outside.commit,
        recorded: outside.recorded,
        accept: outside.accept,
        restore: outside.restore,
      })
      this.#options.onMainOutside?.(outside)
    }
    this.#lastOutside = key
  }
}
