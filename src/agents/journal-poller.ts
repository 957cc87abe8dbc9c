import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import { PeriodicLoop } from '../shared/periodic-loop.ts'

/**
 * The daemon's copier of a journal (opencode's database and storage, Gemini CLI's whole-file
 * sessions): every `intervalMs` it takes the marks of what the journal copies from (cheap: sizes
 * and times) and copies when they changed, or when a minute passed (a part may have gone stale).
 * The capture tailer then sees the journal grow like any transcript. Shaped as a daemon service
 * (`run` until `stop`).
 */
export interface JournalPollerOptions {
  readonly id: string
  /** What the warning of a failed copy names. */
  readonly what: string
  marks(): string
  /** One copy; `busy` when another process was copying and nothing was done. */
  copy(now: number): { readonly busy: boolean }
  readonly clock: Clock
  readonly log: Logger
  readonly intervalMs?: number | undefined
  /**
   * While the marks stay the same the wait doubles up to this (then a change is seen this late),
   * and falls back to `intervalMs` at the first change: for sources whose marks cost a look at
   * many files that rarely change. Unset: every `intervalMs`.
   */
  readonly idleIntervalMs?: number | undefined
}

/** Copies at least this often even when nothing changed, so stale parts are taken. */
const quietCopyMs = 60_000

export class JournalPoller {
  readonly id: string
  readonly #options: JournalPollerOptions
  readonly #loop = new PeriodicLoop()

  constructor(options: JournalPollerOptions) {
    this.id = options.id
    this.#options = options
  }

  run(): Promise<void> {
    return this.#loop.start(() => this.#run())
  }

  stop(): Promise<void> {
    return this.#loop.stop()
  }

  async #run(): Promise<void> {
    const { clock, log } = this.#options
    const interval = this.#options.intervalMs ?? 1000
    const idleInterval = Math.max(interval, this.#options.idleIntervalMs ?? interval)
    let seen = ''
    let copiedAt = 0
    let wait = interval
    await this.#loop.every(
      () => wait,
      () => {
        const now = clock.now()
        try {
          const marks = this.#options.marks()
          wait = marks === seen ? Math.min(wait * 2, idleInterval) : interval
          if (marks !== seen || now - copiedAt >= quietCopyMs) {
            if (!this.#options.copy(now).busy) {
              seen = marks
              copiedAt = now
            }
          }
        } catch (error) {
          log.warn(`could not copy ${this.#options.what}`, { error: (error as Error).message })
          copiedAt = now
        }
      },
    )
  }
}
