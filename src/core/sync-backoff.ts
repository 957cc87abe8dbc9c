/**
 * How long a client waits before trying the server again. "Full jitter": a random wait below an
 * exponentially growing ceiling, so that a team's clients reconnecting after a server restart do
 * not come back in one wave.
 */
export const reconnectFloorMs = 250
export const reconnectCeilingMs = 30_000

/** The wait after `failures` consecutive failed attempts (0 after the first one); `random` in [0, 1). */
export function reconnectDelayMs(failures: number, random: number): number {
  const ceiling = Math.min(reconnectCeilingMs, reconnectFloorMs * 2 ** Math.min(failures, 16))
  return Math.round(reconnectFloorMs + random * (ceiling - reconnectFloorMs))
}

/**
 * The shortest time between two pushes for a server that accepts `pushesPerSecond`: pushing no
 * faster than that keeps a busy outbox out of RATE_LIMITED instead of bouncing off it.
 */
export function pushIntervalMs(pushesPerSecond: number): number {
  return Math.ceil(1000 / Math.max(1, pushesPerSecond))
}
