import type { MachineName } from '../identity/core/machine-labels.ts'
import { shareIntegrationBacklog } from '../lanes/services/integration-events.ts'
import { registerCapturedSessions } from '../room/services/captured-sessions.ts'
import { shareMachineName } from '../room/services/machine-names.ts'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'
import type { Db } from '../store/database.ts'
import type { Service } from './service.ts'

export interface DirectoryServiceOptions {
  /** Opens the connection it writes on (its own, beside capture's and sync's). */
  readonly openDb: () => Db
  /** This machine, read again every round: a name set with `identify --machine` reaches the team. */
  readonly machine: () => MachineName
  readonly worktrees: readonly string[]
  readonly human: string
  readonly clock: Clock
  readonly log: Logger
  readonly intervalMs?: number | undefined
  /** A round queued records for the team: `up` nudges sync so other machines see them now. */
  readonly onShared?: (() => void) | undefined
  /** Each finished round, with how many sessions it brought into the room (tests wait on it). */
  readonly onRound?: ((registered: number) => void) | undefined
}

export const directoryIntervalMs = 15_000

/**
 * This machine in the team's directory: its readable name, every agent session capture recorded
 * here (hooks or not), and its integration events from before they were shared. A round at start,
 * one whenever capture committed (nudged), else every `intervalMs`. A round that fails is logged
 * and the next one tries again; the daemon's other services go on.
 */
export class DirectoryService implements Service {
  readonly id = 'directory'
  readonly #options: DirectoryServiceOptions
  readonly #log: Logger
  readonly #loop = new PeriodicLoop()
  #lastFailure: string | null = null

  constructor(options: DirectoryServiceOptions) {
    this.#options = options
    this.#log = options.log.child({ component: this.id })
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  /** A round now: capture has just recorded sessions that may be new to the room. */
  nudge(): void {
    this.#loop.nudge()
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }

  async #run(): Promise<void> {
    const db = this.#options.openDb()
    try {
      let first = true
      await this.#loop.every(this.#options.intervalMs ?? directoryIntervalMs, () => {
        this.#round(db, first)
        first = false
      })
    } finally {
      db.close()
    }
  }

  #round(db: Db, first: boolean): void {
    const { clock, human } = this.#options
    try {
      const machine = this.#options.machine()
      let shared = first && shareIntegrationBacklog(db, { machine: machine.id, human }, clock.now())
      if (shareMachineName(db, machine, human, clock.now())) shared = true
      const registered = registerCapturedSessions(
        db,
        { machine: machine.id, worktrees: this.#options.worktrees },
        clock.now(),
      )
      if (registered > 0) this.#log.debug('sessions brought into the room', { registered })
      if (shared || registered > 0) this.#options.onShared?.()
      this.#lastFailure = null
      this.#options.onRound?.(registered)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      // Said once per kind of failure, not every round.
      if (message !== this.#lastFailure) this.#log.warn('directory round failed', { error: message })
      this.#lastFailure = message
    }
  }
}
