/**
 * Randomness is injected like the clock: jitter and fresh ids come from a `Random`, so a test can
 * make them predictable. `systemRandom` is the one place that touches the runtime's sources; it
 * uses the Web Crypto global, which Node 20 and workerd both have, so shared/ stays free of Node
 * builtins and the server can take the same interface.
 */
export interface Random {
  /** A number in [0, 1), for jitter. Not for anything secret. */
  fraction(): number
  /** `count` cryptographically strong random bytes: ids, keys. */
  bytes(count: number): Uint8Array
  /** A random (v4) UUID. */
  uuid(): string
}

export const systemRandom: Random = {
  fraction: () => Math.random(),
  bytes: (count) => crypto.getRandomValues(new Uint8Array(count)),
  uuid: () => crypto.randomUUID(),
}
