import { PushRateLimiter } from './push-rate-limiter.ts'
import { Refusal } from './refusal.ts'

/**
 * Who pays for a push. Not the `clientId` in the body: a client chooses it, so a new one per push
 * would be a fresh bucket each time. A push over HTTP is charged to the client's address (what the
 * edge saw, not what the client says), one over a socket to its connection (the server made it;
 * the number of connections is capped); and every push, however it came, to the project as a whole,
 * so no number of addresses or connections makes one project's writes unbounded.
 */
export type Pusher = { readonly address: string } | { readonly connection: string }

export interface PushRates {
  readonly pushesPerSecond: number
  readonly projectPushesPerSecond: number
}

export class PushAdmission {
  readonly #rates: PushRates
  readonly #pushers: PushRateLimiter
  readonly #project: PushRateLimiter

  constructor(rates: PushRates) {
    this.#rates = rates
    this.#pushers = new PushRateLimiter(rates.pushesPerSecond)
    this.#project = new PushRateLimiter(rates.projectPushesPerSecond)
  }

  /** Takes one push from the pusher's budget and the project's, or refuses with `RATE_LIMITED`. */
  admit(pusher: Pusher, now: number): void {
    const key = keyOf(pusher)
    const own = this.#pushers.take(key, now)
    if (!own.allowed)
      throw new Refusal(
        'RATE_LIMITED',
        `${key} pushes more than ${this.#rates.pushesPerSecond} times a second`,
        {
          retryAfterMs: own.retryAfterMs,
        },
      )
    const project = this.#project.take('project', now)
    if (!project.allowed) {
      this.#pushers.giveBack(key)
      throw new Refusal(
        'RATE_LIMITED',
        `this project takes at most ${this.#rates.projectPushesPerSecond} pushes a second from everyone together`,
        { retryAfterMs: project.retryAfterMs },
      )
    }
  }

  /** A closed connection's bucket is dropped (a new connection is a new pusher anyway). */
  forget(pusher: Pusher): void {
    this.#pushers.forget(keyOf(pusher))
  }
}

function keyOf(pusher: Pusher): string {
  return 'address' in pusher ? `address ${pusher.address}` : `connection ${pusher.connection}`
}

/**
 * The client's address as the edge saw it. Cloudflare sets `CF-Connecting-IP` on every request and
 * a client cannot override it there; `sangam serve` (Miniflare) sets it from the socket unless the
 * request already carries one, so behind `serve` it is only as trustworthy as the network.
 */
export function clientAddress(request: Request): string {
  return request.headers.get('cf-connecting-ip')?.trim() || 'unknown'
}
