/**
 * A sleep that a nudge cuts short: long-running loops idle with it between polls, and whoever has
 * news (new records, a stop) calls `nudge()` so the loop acts at once instead of at the next poll.
 * A nudge with nobody asleep is dropped: the loop re-checks its state before sleeping again.
 */
export class NudgeableSleep {
  #wake: (() => void) | null = null

  /** Resolves after `ms`, at the next `nudge()`, or at once when `signal` has already fired. */
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      this.#wake = done
      function done(): void {
        clearTimeout(timer)
        resolve()
      }
    }).finally(() => {
      this.#wake = null
    })
  }

  nudge(): void {
    this.#wake?.()
  }
}
