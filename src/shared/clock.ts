/** Time is injected everywhere so lease expiry, windows and idle timers are testable without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  #now: number

  constructor(start: number) {
    this.#now = start
  }

  now(): number {
    return this.#now
  }

  advance(ms: number): void {
    this.#now += ms
  }

  set(ms: number): void {
    this.#now = ms
  }
}
