/**
 * How long a client waits before trying the server again. "Full jitter": a random wait below an
 * exponentially growing ceiling, so that a team's clients reconnecting after a server restart do
 * not come back in one wave. The ceiling is a few seconds, not half a minute: a reconnection
 * attempt costs one refused TCP connection while the server is down, and once it is back a client
 * must be on it promptly (at 30 s, clients were found waiting 23 s after the server had returned).
 */
export const reconnectFloorMs = 250
export const reconnectCeilingMs = 5_000

/**
 * The wait after `failures` consecutive failed attempts (0: a connection that worked just ended);
 * `random` in [0, 1). Spread from the very first wait (250–500 ms): a server restart or a network
 * blip ends every client's connection at once, and a constant first wait brought them all back in
 * one wave.
 */
export function reconnectDelayMs(failures: number, random: number): number {
  const ceiling = Math.min(reconnectCeilingMs, reconnectFloorMs * 2 ** Math.min(failures + 1, 16))
  return Math.round(reconnectFloorMs + random * (ceiling - reconnectFloorMs))
}

/**
 * The client's copy of the server's push budget: a token bucket of one second's worth of pushes,
 * refilled at `pushesPerSecond` (what the server enforces per client, docs/protocol.md). Pushing
 * against it lets a burst go at once and keeps a busy outbox out of RATE_LIMITED instead of
 * bouncing off it.
 */
export interface PushBudgetState {
  readonly tokens: number
  /** When `tokens` was counted (ms epoch). */
  readonly at: number
}

/** Takes one push from the budget: how long to wait before sending it, and the budget after it. */
export function takePush(
  state: PushBudgetState | null,
  now: number,
  pushesPerSecond: number,
): { readonly waitMs: number; readonly next: PushBudgetState } {
  const rate = Math.max(1, pushesPerSecond)
  // A push already promised for later (`at` ahead of `now`) is owed: the count goes below zero.
  const refilled = state === null ? rate : Math.min(rate, state.tokens + ((now - state.at) * rate) / 1000)
  if (refilled >= 1) return { waitMs: 0, next: { tokens: refilled - 1, at: now } }
  const waitMs = Math.ceil(((1 - refilled) * 1000) / rate)
  return { waitMs, next: { tokens: 0, at: now + waitMs } }
}
