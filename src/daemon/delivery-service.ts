import { type FSWatcher, watch } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { WakeInPlace } from '../agents/wake-in-place.ts'
import { databasePath } from '../config/data-paths.ts'
import type { DeliveryRouter, SessionOutcome } from '../delivery/services/delivery-router.ts'
import { openDeliveryRouter } from '../delivery/services/open-router.ts'
import { pendingDeliveries } from '../delivery/store/delivery-ledger.ts'
import { liveTurns } from '../delivery/store/delivery-turn-table.ts'
import type { ProjectContext } from '../identity/services/project-context.ts'
import { lastMessageSeq } from '../room/store/message-table.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'
import { systemRandom } from '../shared/random.ts'
import type { Db } from '../store/database.ts'
import type { Service } from './service.ts'

/** A turn delivery started, or a tag it could not carry: `sangam up` prints it. */
export interface DeliveryStatus {
  readonly type: 'delivery'
  readonly vendor: string
  readonly sessionId: string
  /** `started`, or what stopped it: a refusal, a failure. */
  readonly outcome: string
  readonly channel: string | null
  readonly turn: number | null
  readonly messages: number
}

export interface DeliveryServiceOptions {
  /** The project as the daemon opened it; the service reads and writes on a connection of its own. */
  readonly project: ProjectContext
  readonly openDb: () => Db
  readonly log: Logger
  readonly pid: number
  readonly wake?: WakeInPlace | undefined
  /**
   * How often the room's newest message is looked at when no change to the store was seen: a
   * post by another process on this machine is seen at once through a watch on the database's
   * directory, and this poll only makes up for a watch that cannot run or misses.
   */
  readonly pollMs?: number | undefined
  /** How often pending tags (a cooldown, a running turn) and running turns are weighed again. */
  readonly retryMs?: number | undefined
  readonly onStatus?: ((status: DeliveryStatus) => void) | undefined
}

/** Looks failing in a row before the failure is logged as a warning rather than at debug. */
const failedLooksWorthSaying = 3

/**
 * The daemon's delivery (`sangam up`): the machine where a session lives delivers to it. It looks
 * when a message reached the replica (posted here by any process: the newest local seq moved,
 * read as soon as a write to the database file is seen, else every `pollMs`; or applied from the
 * team server: `nudge()`), and every `retryMs` while tags wait or turns run. Each look is `DeliveryRouter.look()`; the guards are the ledger's, so a
 * second daemon, a CLI `send` or an MCP server weighing the same tag never starts a second turn.
 */
export class DeliveryService implements Service {
  readonly id = 'delivery'
  readonly #options: DeliveryServiceOptions
  /** Nudged by a write to the store (read the newest seq again before sleeping) and by `nudge()`. */
  readonly #loop = new PeriodicLoop()
  /** Records arrived from the team server since the last look: look even if the newest seq stayed. */
  #nudged = false
  #failedLooks = 0

  constructor(options: DeliveryServiceOptions) {
    this.#options = options
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }

  /** Records arrived from the team server: look now. */
  nudge(): void {
    this.#nudged = true
    this.#loop.nudge()
  }

  async #run(): Promise<void> {
    const db = this.#options.openDb()
    const log = this.#options.log.child({ component: this.id })
    const watcher = this.#watchStore(log)
    try {
      const router = openDeliveryRouter(
        { ...this.#options.project, db, close: () => db.close() },
        {
          pid: this.#options.pid,
          log,
          random: systemRandom,
          nodeBinDir: dirname(process.execPath),
          wake: this.#options.wake,
        },
      )
      const pollMs = this.#options.pollMs ?? 250
      const retryMs = this.#options.retryMs ?? 2000
      let seenSeq = -1
      let lastLook = 0
      // A look that failed (the store busy past its timeout while capture catches up) has not
      // scanned its messages into the ledger yet, so nothing else would bring it back: retry it.
      let failedLook = false
      // A write seen during a look (a post landing meanwhile) nudges the loop: it is read now, not
      // at the next poll.
      await this.#loop.every(pollMs, async () => {
        const now = this.#options.project.clock.now()
        const due = now - lastLook >= retryMs
        if (failedLook && !due) return
        const seq = lastMessageSeq(db)
        const waiting = due && (pendingDeliveries(db, 1).length > 0 || liveTurns(db).length > 0)
        if (seq !== seenSeq || this.#nudged || waiting || failedLook) {
          this.#nudged = false
          seenSeq = seq
          lastLook = now
          failedLook = !(await this.#look(router, log))
        }
      })
    } finally {
      watcher?.close()
      db.close()
    }
  }

  /**
   * Watches the database's directory: every commit, by any process of this machine, writes the
   * database's WAL file (or the file itself), so a post made by `sangam post`, a hook or an MCP
   * server is weighed when it lands rather than at the next poll. A change that is no message
   * (capture, presence, the ledger) costs one read of the newest seq. Null when the directory
   * cannot be watched: the poll then carries on alone.
   */
  #watchStore(log: Logger): FSWatcher | null {
    const { env, repo } = this.#options.project
    const file = databasePath(env.sangamHome, repo.projectId)
    const name = basename(file)
    const changed = (): void => this.#loop.nudge()
    try {
      const watcher = watch(dirname(file), { persistent: false }, (_event, changedName) => {
        // `sangam.db`, `sangam.db-wal`; a platform that names no file may have meant either.
        if (changedName === null || changedName.toString().startsWith(name)) changed()
      })
      watcher.on('error', (error) => {
        log.warn('stopped watching the store for posts; looking every poll instead', {
          error: error.message,
        })
        watcher.close()
      })
      return watcher
    } catch (error) {
      log.warn('cannot watch the store for posts; looking every poll instead', {
        error: (error as Error).message,
      })
      return null
    }
  }

  /**
   * One look; false when it failed and must be tried again. A look that fails once (the store busy
   * a moment) is retried unseen; one that keeps failing is something a person must look at.
   */
  async #look(router: DeliveryRouter, log: Logger): Promise<boolean> {
    let outcomes: SessionOutcome[]
    try {
      outcomes = await router.look()
      this.#failedLooks = 0
    } catch (error) {
      this.#failedLooks++
      const fields = { error: (error as Error).message, failuresInARow: this.#failedLooks }
      if (this.#failedLooks >= failedLooksWorthSaying) log.warn('delivery look failed; trying again', fields)
      else log.debug('delivery look failed; trying again', fields)
      return false
    }
    for (const outcome of outcomes) {
      const action = outcome.decision.action
      if (action.kind === 'none' || action.kind === 'wait') continue
      this.#options.onStatus?.({
        type: 'delivery',
        vendor: outcome.vendor,
        sessionId: outcome.sessionId,
        outcome:
          outcome.turn !== null && outcome.turn.state !== 'failed'
            ? 'started'
            : (outcome.problem ?? action.kind),
        channel: action.kind === 'start' ? action.channel : action.kind === 'paste' ? 'tmux-paste' : null,
        turn: outcome.turn?.id ?? null,
        messages: outcome.decision.carried.length,
      })
    }
    return true
  }
}
