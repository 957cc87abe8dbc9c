import {
  type OverlapRoundInput,
  type OverlapRoundResult,
  overlapIntervalMs,
  overlapRound,
} from '../room/services/overlap-round.ts'
import type { BaseChangesMemo } from '../room/services/worktree-states.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'
import type { Db } from '../store/database.ts'
import type { Service } from './service.ts'

/**
 * A round whose answer changed (conflicted paths, threads opened or closed): `sangam up` prints
 * it. Rounds that change nothing say nothing, or `up` would print a line every 15 s.
 */
export interface OverlapStatus {
  readonly type: 'overlap'
  readonly target: string
  readonly lanes: number
  /** Rows of the picture, and how many of them conflict. */
  readonly rows: number
  readonly conflicted: number
  readonly opened: readonly string[]
  readonly closed: readonly string[]
}

export interface OverlapServiceOptions extends Omit<OverlapRoundInput, 'db'> {
  /** Opens the connection the picture is written on (its own, beside capture's and sync's). */
  readonly openDb: () => Db
  readonly log: Logger
  /** Time between the end of one round and the start of the next. */
  readonly intervalMs?: number | undefined
  /**
   * A round queued records for the team (worktree states that changed, threads opened or closed):
   * `up` nudges sync so other machines see them now, not at its next look at the outbox.
   */
  readonly onShared?: (() => void) | undefined
  /** Each finished round (tests wait on it). */
  readonly onRound?: ((result: OverlapRoundResult) => void) | undefined
  /**
   * The first round waits for this (the team server connected, or found unreachable or absent),
   * at most `firstRoundWaitMs`: at a daemon's start its git work competes for the one thread with
   * the connection, and what the round publishes can only leave once connected anyway.
   */
  readonly startAfter?: Promise<unknown> | undefined
  readonly onStatus?: ((status: OverlapStatus) => void) | undefined
}

/** The longest the first round waits for `startAfter`. */
const firstRoundWaitMs = 10_000

/**
 * The daemon's overlap picture: a round (room/services/overlap-round.ts) at start, then one
 * `intervalMs` after each ends, so two never run at once however long git takes. A round that
 * fails (git broken mid-rebase, no main branch) is logged and the next one tries again: the
 * picture is advice, and the daemon's other services must not stop for it.
 */
export class OverlapService implements Service {
  readonly id = 'overlap'
  readonly #options: OverlapServiceOptions
  readonly #log: Logger
  readonly #loop = new PeriodicLoop()
  #lastFailure: string | null = null
  #lastConflicted = 0
  /** Worktree base changes by commits, kept across rounds: an unchanged worktree costs no git. */
  readonly #baseMemo: BaseChangesMemo = new Map()

  constructor(options: OverlapServiceOptions) {
    this.#options = options
    this.#log = options.log.child({ component: this.id })
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  /**
   * Starts the next round now rather than at the end of the wait (another machine's state came).
   * A nudge during a round is kept: that round may have read the states before the news arrived.
   */
  nudge(): void {
    this.#loop.nudge()
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }

  async #run(): Promise<void> {
    const { startAfter } = this.#options
    if (startAfter !== undefined) await Promise.race([startAfter, this.#loop.nap(firstRoundWaitMs)])
    const db = this.#options.openDb()
    try {
      await this.#loop.every(this.#options.intervalMs ?? overlapIntervalMs, () => this.#round(db))
    } finally {
      db.close()
    }
  }

  async #round(db: Db): Promise<void> {
    try {
      const result = await overlapRound({ ...this.#options, db, baseMemo: this.#baseMemo })
      const { opened, closed, failed } = result.threads
      // Said once while the same refusals repeat, not every 15 s.
      const failure = failed.length === 0 ? null : failed.map((refused) => refused.message).join('\n')
      if (failure !== null && failure !== this.#lastFailure) {
        for (const refused of failed) {
          this.#log.warn('conflict thread not opened', {
            worktrees: refused.worktrees,
            error: refused.message,
          })
        }
      }
      this.#lastFailure = failure
      if (opened.length > 0 || closed.length > 0 || result.conflicted !== this.#lastConflicted) {
        this.#options.onStatus?.({
          type: 'overlap',
          target: result.target,
          lanes: result.lanes,
          rows: result.rows,
          conflicted: result.conflicted,
          opened,
          closed,
        })
      }
      this.#lastConflicted = result.conflicted
      if (result.published > 0 || opened.length > 0 || closed.length > 0) this.#options.onShared?.()
      this.#options.onRound?.(result)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      // Said once per kind of failure, not every 15 s.
      if (message !== this.#lastFailure) this.#log.warn('overlap round failed', { error: message })
      this.#lastFailure = message
    }
  }
}
