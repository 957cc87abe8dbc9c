/**
 * Token buckets, one per client (HTTP pushes, keyed by `clientId`) or per WebSocket connection.
 * A bucket holds one second's worth of pushes, so a client may burst up to the rate and then
 * sustains the rate. The state lives in the object's memory: when the object hibernates or
 * restarts every bucket is full again, which only ever errs towards accepting.
 */
export interface Bucket {
  readonly tokens: number
  readonly updatedAt: number
}

export type TakeResult =
  | { readonly allowed: true; readonly bucket: Bucket }
  | { readonly allowed: false; readonly bucket: Bucket; readonly retryAfterMs: number }

export function takeToken(bucket: Bucket | undefined, now: number, perSecond: number): TakeResult {
  const refilled = bucket === undefined ? perSecond : refill(bucket, now, perSecond)
  if (refilled >= 1) return { allowed: true, bucket: { tokens: refilled - 1, updatedAt: now } }
  return {
    allowed: false,
    bucket: { tokens: refilled, updatedAt: now },
    retryAfterMs: Math.ceil(((1 - refilled) * 1000) / perSecond),
  }
}

function refill(bucket: Bucket, now: number, perSecond: number): number {
  const elapsed = Math.max(0, now - bucket.updatedAt)
  return Math.min(perSecond, bucket.tokens + (elapsed * perSecond) / 1000)
}

/** Keyed buckets; forgets the ones that have refilled, so idle clients cost no memory. */
export class PushRateLimiter {
  readonly #buckets = new Map<string, Bucket>()
  readonly #perSecond: number

  constructor(perSecond: number) {
    this.#perSecond = perSecond
  }

  take(key: string, now: number): TakeResult {
    const result = takeToken(this.#buckets.get(key), now, this.#perSecond)
    this.#buckets.set(key, result.bucket)
    if (this.#buckets.size > 1000) this.#forgetFull(now)
    return result
  }

  forget(key: string): void {
    this.#buckets.delete(key)
  }

  #forgetFull(now: number): void {
    for (const [key, bucket] of this.#buckets)
      if (refill(bucket, now, this.#perSecond) >= this.#perSecond) this.#buckets.delete(key)
  }
}
