import type { LockKept } from '../services/lanes/lock-keeper.ts'
import type { Logger } from '../shared/logger.ts'
import { NudgeableSleep } from '../shared/nudgeable-sleep.ts'
import type { Db } from '../store/database.ts'
import type { Service } from './service.ts'

export interface LaneLockServiceOptions {
  /** Opens the connection the lock is read and renewed on (its own, beside the other services'). */
  readonly openDb: () => Db
  /** One look at the lock (services/lanes/lock-keeper.ts); null when the project has no lanes. */
  readonly keep: (db: Db) => Promise<LockKept | null>
  readonly log: Logger
  /** Time between the end of one look and the start of the next. */
  readonly intervalMs?: number | undefined
  /** Each finished look (tests wait on it). */
  readonly onKept?: ((kept: LockKept | null) => void) | undefined
}

export const laneLockIntervalMs = 60_000

/**
 * The daemon keeps the integration lock of a lane at work alive (D246): a look once a minute,
 * renewing the heartbeat of a holder whose task is active and whose agent is alive or whose
 * worktree changed (keepLaneLock). A look that fails (no main branch, the team server
 * unreachable) is logged once per kind and the next one tries again.
 */
export class LaneLockService implements Service {
  readonly id = 'lane-lock'
  readonly #options: LaneLockServiceOptions
  readonly #log: Logger
  readonly #stop = new AbortController()
  readonly #nap = new NudgeableSleep()
  #running: Promise<void> | null = null
  #lastFailure: string | null = null

  constructor(options: LaneLockServiceOptions) {
    this.#options = options
    this.#log = options.log.child({ component: this.id })
  }

  run(): Promise<void> {
    this.#running ??= this.#run()
    return this.#running
  }

  async stop(): Promise<void> {
    this.#stop.abort()
    this.#nap.nudge()
    await this.#running
  }

  async #run(): Promise<void> {
    const db = this.#options.openDb()
    try {
      while (!this.#stop.signal.aborted) {
        await this.#look(db)
        await this.#nap.sleep(this.#options.intervalMs ?? laneLockIntervalMs, this.#stop.signal)
      }
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
      this.#options.onKept?.(kept)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (message !== this.#lastFailure) this.#log.warn('integration lock look failed', { error: message })
      this.#lastFailure = message
    }
  }
}
