import { statSync } from 'node:fs'
import type { Clock } from '../../../shared/clock.ts'
import type { Logger } from '../../../shared/logger.ts'
import { type JournalOptions, opencodeDatabaseFile, syncOpencodeJournal } from './opencode-journal.ts'

/**
 * The daemon's copier of opencode's database into the journal: every `intervalMs` it looks at the
 * database and its write-ahead log, and copies when either changed (or a part may have gone
 * stale). The capture tailer then sees the journal grow like any transcript. Shaped as a daemon
 * service (`run` until `stop`).
 */
export interface JournalPollerOptions {
  readonly dataDir: string
  readonly journalDir: string
  readonly clock: Clock
  readonly log: Logger
  readonly intervalMs?: number | undefined
}

/** Copies at least this often even when nothing changed, so stale parts are taken. */
const quietCopyMs = 60_000

export class OpencodeJournalPoller {
  readonly id = 'opencode-journal'
  readonly #options: JournalPollerOptions
  readonly #stop = new AbortController()
  #running: Promise<void> | null = null

  constructor(options: JournalPollerOptions) {
    this.#options = options
  }

  run(): Promise<void> {
    this.#running ??= this.#run()
    return this.#running
  }

  async stop(): Promise<void> {
    this.#stop.abort()
    await this.#running
  }

  async #run(): Promise<void> {
    const { clock, log } = this.#options
    const db = opencodeDatabaseFile(this.#options.dataDir)
    let seen = ''
    let copiedAt = 0
    while (!this.#stop.signal.aborted) {
      const now = clock.now()
      const marks = `${mark(db)}|${mark(`${db}-wal`)}`
      if (marks !== seen || now - copiedAt >= quietCopyMs) {
        try {
          const options: JournalOptions = { ...this.#options, now }
          const result = syncOpencodeJournal(options)
          if (!result.busy) {
            seen = marks
            copiedAt = now
          }
        } catch (error) {
          log.warn('could not copy opencode sessions', { error: (error as Error).message })
          copiedAt = now
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.intervalMs ?? 1000)
        this.#stop.signal.addEventListener('abort', () => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }
}

function mark(file: string): string {
  try {
    const stat = statSync(file)
    return `${stat.size}:${stat.mtimeMs}`
  } catch {
    return '-'
  }
}
