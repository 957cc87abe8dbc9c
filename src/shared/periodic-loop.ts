import { NudgeableSleep } from './nudgeable-sleep.ts'

/**
 * The loop every long-running service shares (the daemon's services, the journal copiers, the
 * capture tailer, a sync connection's pusher): a round, then a nap of the service's interval
 * that a nudge or a stop cuts short. A nudge during a round is kept, since that round may have read
 * its inputs before the news came: the next round starts at once. The loop runs once however often
 * it is started; `stop` lets the round in hand finish (a transaction is never cut in half) and
 * resolves once the loop has ended.
 */
export class PeriodicLoop {
  readonly #stop = new AbortController()
  readonly #nap = new NudgeableSleep()
  #running: Promise<void> | null = null
  #nudged = false

  /** Fires at `stop()`: a service's own waits end with it. */
  get signal(): AbortSignal {
    return this.#stop.signal
  }

  /** Runs `body` (which calls `every`) once; a second start answers the same run. */
  start(body: () => Promise<void>): Promise<void> {
    this.#running ??= body()
    return this.#running
  }

  /**
   * A round every `intervalMs`, or sooner when nudged, until stopped. A function is asked after
   * each round, for services whose wait depends on what the round found.
   */
  async every(intervalMs: number | (() => number), round: () => Promise<void> | void): Promise<void> {
    while (!this.#stop.signal.aborted) {
      this.#nudged = false
      await round()
      if (!this.#nudged) await this.nap(typeof intervalMs === 'number' ? intervalMs : intervalMs())
    }
  }

  /** Waits `ms`, or less when nudged or stopped. */
  nap(ms: number): Promise<void> {
    return this.#nap.sleep(ms, this.#stop.signal)
  }

  nudge(): void {
    this.#nudged = true
    this.#nap.nudge()
  }

  async stop(): Promise<void> {
    this.#stop.abort()
    this.#nap.nudge()
    await this.#running
  }
}
