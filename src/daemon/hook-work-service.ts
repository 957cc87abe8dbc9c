import { hookWorkDir } from '../config/data-paths.ts'
import { type DrainReport, drainHookWork } from '../hook-work/services/work-drain.ts'
import { journalEntries } from '../hook-work/services/work-journal.ts'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'
import { isAlive } from '../shared/process-alive.ts'
import type { Db } from '../store/database.ts'
import type { Service } from './service.ts'

/** A drain that did something: steps done, dropped as moot, or met another lease. */
export interface HookWorkStatus extends DrainReport {
  readonly type: 'hook-work'
}

export interface HookWorkServiceOptions {
  /** The project's data directory: its journal, and whether it is attached to a team server. */
  readonly projectDir: string
  readonly sangamHome: string
  readonly openDb: () => Db
  readonly clock: Clock
  readonly log: Logger
  readonly pid: number
  readonly onStatus: (status: HookWorkStatus) => void
  /** How often the journal is looked at. */
  readonly pollMs?: number | undefined
  /** How long one step may wait for the team server or the store's write lock. */
  readonly stepTimeoutMs?: number | undefined
}

/**
 * Does what the agent hooks could not finish within their budget (hook-work/services/): pushes a
 * late auto-lease, records presence, releases a session's leases. The journal is a directory of
 * small files, so a look at it is one `readdir`, once a second; a nudge (the sync connection came
 * back) looks at once and tries every step without its pause. A step that fails again waits in the journal with its own pause.
 */
export class HookWorkService implements Service {
  readonly id = 'hook-work'
  readonly #options: HookWorkServiceOptions
  readonly #log: Logger
  readonly #loop = new PeriodicLoop()
  /** Set by a nudge: the next drain tries every step now, whatever its pause. */
  #eager = false

  constructor(options: HookWorkServiceOptions) {
    this.#options = options
    this.#log = options.log.child({ component: this.id })
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }

  nudge(): void {
    this.#eager = true
    this.#loop.nudge()
  }

  async #run(): Promise<void> {
    const dir = hookWorkDir(this.#options.projectDir)
    // Opened at the first step to do (most daemons never have one); assigned inside the round.
    let db = null as Db | null
    try {
      await this.#loop.every(this.#options.pollMs ?? 1000, async () => {
        if (!journalEntries(dir).some((entry) => entry.type !== 'notice')) return
        db ??= this.#options.openDb()
        await this.#drain(dir, db)
      })
    } finally {
      db?.close()
    }
  }

  async #drain(dir: string, db: Db): Promise<void> {
    const eager = this.#eager
    this.#eager = false
    try {
      const report = await drainHookWork({
        dir,
        projectDir: this.#options.projectDir,
        db,
        sangamHome: this.#options.sangamHome,
        clock: this.#options.clock,
        pid: this.#options.pid,
        isAlive,
        timeoutMs: this.#options.stepTimeoutMs ?? 10_000,
        ignorePauses: eager,
        log: this.#log,
      })
      if (report.done + report.dropped + report.conflicts > 0)
        this.#options.onStatus({ type: 'hook-work', ...report })
    } catch (error) {
      // An unreadable journal directory, say: the next look tries again.
      this.#log.warn('cannot drain kept hook work', { error: (error as Error).message })
    }
  }
}
