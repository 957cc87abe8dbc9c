/**
 * A memo of at most `capacity` entries that forgets the one least recently used: for module-level
 * caches in code that runs for a long time (the daemon, the team server's Durable Object), where an
 * unbounded map grows with every distinct key it is ever asked.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #capacity: number

  constructor(capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`an LruMap holds at least one entry, not ${capacity}`)
    this.#capacity = capacity
  }

  get size(): number {
    return this.#entries.size
  }

  /** The value of `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value === undefined) return undefined
    // A Map keeps insertion order: put back last, the key is the newest.
    this.#entries.delete(key)
    this.#entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next()
      if (!oldest.done) this.#entries.delete(oldest.value)
    }
  }
}
