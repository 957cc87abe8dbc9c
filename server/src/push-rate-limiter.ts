/**
 * Token buckets, keyed by whoever is limited: a client address, a WebSocket connection, the whole
 * project (pushes), or an address and the whole server (project creation). A bucket holds
 * `capacity` tokens (one second's worth of pushes by default), so a pusher may burst up to it and
 * then sustains the rate. The state lives in the object's memory: when the object hibernates or
 * restarts every bucket is full again, which only ever errs towards accepting.
 */
export interface Bucket {
  readonly tokens: number
  readonly updatedAt: number
}

export type TakeResult =
  | { readonly allowed: true; readonly bucket: Bucket }
  | { readonly allowed: false; readonly bucket: Bucket; readonly retryAfterMs: number }

export function takeToken(
  bucket: Bucket | undefined,
  now: number,
  perSecond: number,
  capacity = perSecond,
): TakeResult {
  const refilled = bucket === undefined ? capacity : refill(bucket, now, perSecond, capacity)
  if (refilled >= 1) return { allowed: true, bucket: { tokens: refilled - 1, updatedAt: now } }
  return {
    allowed: false,
    bucket: { tokens: refilled, updatedAt: now },
    retryAfterMs: Math.ceil(((1 - refilled) * 1000) / perSecond),
  }
}

function refill(bucket: Bucket, now: number, perSecond: number, capacity: number): number {
  const elapsed = Math.max(0, now - bucket.updatedAt)
  return Math.min(capacity, bucket.tokens + (elapsed * perSecond) / 1000)
}

/** Keyed buckets; forgets the ones that have refilled, so idle clients cost no memory. */
export class PushRateLimiter {
  readonly #buckets = new Map<string, Bucket>()
  readonly #perSecond: number
  readonly #capacity: number

  /** `perSecond` may be a fraction (creations per hour); `capacity` is the burst, one second's worth by default. */
  constructor(perSecond: number, capacity = perSecond) {
    this.#perSecond = perSecond
    this.#capacity = capacity
  }

  take(key: string, now: number): TakeResult {
    const result = takeToken(this.#buckets.get(key), now, this.#perSecond, this.#capacity)
    this.#buckets.set(key, result.bucket)
    if (this.#buckets.size > 1000) this.#forgetFull(now)
    return result
  }

  /** How long until `key` has a token again (0: now), without taking one. */
  wait(key: string, now: number): number {
    const bucket = this.#buckets.get(key)
    if (bucket === undefined) return 0
    const refilled = refill(bucket, now, this.#perSecond, this.#capacity)
    return refilled >= 1 ? 0 : Math.ceil(((1 - refilled) * 1000) / this.#perSecond)
  }

  /** Puts back a token taken by `take` (a push another limit refused must not cost this one). */
  giveBack(key: string): void {
    const bucket = this.#buckets.get(key)
    if (bucket !== undefined)
      this.#buckets.set(key, { ...bucket, tokens: Math.min(this.#capacity, bucket.tokens + 1) })
  }

  forget(key: string): void {
    this.#buckets.delete(key)
  }

  #forgetFull(now: number): void {
    for (const [key, bucket] of this.#buckets)
      if (refill(bucket, now, this.#perSecond, this.#capacity) >= this.#capacity) this.#buckets.delete(key)
  }
}
