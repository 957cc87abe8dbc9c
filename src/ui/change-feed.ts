import type { Logger } from '../shared/logger.ts'
import {
  type ChangeMarkReader,
  type ChangeMarks,
  type ChangeTopic,
  changedTopics,
} from '../store/change-marks.ts'

/** One change of the store as the pages hear of it: its place in the run's order, and what it touched. */
export interface Change {
  readonly cursor: number
  readonly topics: readonly ChangeTopic[]
}

/** What a new subscriber is told first, before the live changes. */
export type Catchup =
  /** No resume point given: here is where the run stands. */
  | { readonly kind: 'hello'; readonly cursor: number }
  /** Every change after the resume point, in order (possibly none). */
  | { readonly kind: 'replay'; readonly changes: readonly Change[] }
  /** The changes after the resume point are no longer kept, or it is not of this run: refetch all. */
  | { readonly kind: 'reset'; readonly cursor: number }

export type ChangeListener = (change: Change) => void

/** How many changes are kept for reconnecting pages (at one every 200 ms: more than 3 minutes' worth). */
export const keptChanges = 1000
/** How often the store is looked at. */
export const feedPollMs = 200

/**
 * The dashboard's one watcher of the store, however many pages are open. Every `feedPollMs` it
 * asks its own connection's `data_version` (which moves when any other connection commits: the
 * CLI, the hooks, the daemon applying teammates' records, this server's own writes); only when it
 * moved does it read the topics' marks, and each set of topics that changed is one `Change` with
 * the next cursor. Subscribers get every change after the cursor they resume from, then the live
 * ones: a change is never skipped or sent twice to one subscriber.
 */
export class ChangeFeed {
  readonly #reader: ChangeMarkReader
  readonly #log: Logger
  readonly #kept: Change[] = []
  readonly #listeners = new Set<ChangeListener>()
  #cursor = 0
  #version: number
  #marks: ChangeMarks
  #timer: NodeJS.Timeout | null = null

  constructor(reader: ChangeMarkReader, log: Logger) {
    this.#reader = reader
    this.#log = log
    this.#version = reader.dataVersion()
    this.#marks = reader.marks()
  }

  get cursor(): number {
    return this.#cursor
  }

  start(intervalMs = feedPollMs): void {
    if (this.#timer !== null) return
    this.#timer = setInterval(() => this.tick(), intervalMs)
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
    this.#listeners.clear()
  }

  /** One look at the store; the change it found, if any, is kept and sent to every subscriber. */
  tick(): Change | null {
    let topics: ChangeTopic[]
    try {
      const version = this.#reader.dataVersion()
      if (version === this.#version) return null
      this.#version = version
      const marks = this.#reader.marks()
      topics = changedTopics(this.#marks, marks)
      this.#marks = marks
    } catch (error) {
      // A look that fails (the disk, a lock held past the timeout) is tried again at the next tick.
      this.#log.warn('the dashboard could not look at the store; trying again', { error: String(error) })
      return null
    }
    // A commit that changed nothing a page shows (a capture cursor, the outbox) is no change.
    if (topics.length === 0) return null
    this.#cursor += 1
    const change: Change = { cursor: this.#cursor, topics }
    this.#kept.push(change)
    if (this.#kept.length > keptChanges) this.#kept.splice(0, this.#kept.length - keptChanges)
    for (const listener of this.#listeners) listener(change)
    return change
  }

  /**
   * Registers `listener` for the changes after now and says what came since `after` (a cursor the
   * subscriber last saw, or null for a first connection). Both happen in one turn of the event
   * loop, so no change falls between the catch-up and the first live one.
   */
  subscribe(after: number | null, listener: ChangeListener): { catchup: Catchup; unsubscribe: () => void } {
    this.#listeners.add(listener)
    const unsubscribe = (): void => {
      this.#listeners.delete(listener)
    }
    return { catchup: this.#catchup(after), unsubscribe }
  }

  #catchup(after: number | null): Catchup {
    if (after === null) return { kind: 'hello', cursor: this.#cursor }
    if (after > this.#cursor || after < 0) return { kind: 'reset', cursor: this.#cursor }
    if (after === this.#cursor) return { kind: 'replay', changes: [] }
    const oldest = this.#kept[0]?.cursor ?? this.#cursor + 1
    if (after < oldest - 1) return { kind: 'reset', cursor: this.#cursor }
    return { kind: 'replay', changes: this.#kept.filter((change) => change.cursor > after) }
  }
}
