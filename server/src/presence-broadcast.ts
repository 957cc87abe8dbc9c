/**
 * Coalesced presence updates. Before, every socket that came or went sent the whole presence list
 * to every other socket at once: N sockets connecting cost N² messages (200: 19,900 messages,
 * 319 MB). Now a change only marks presence changed and starts a short window; when it ends, the
 * list is built once and sent once to each socket that has not seen it yet (one welcomed after
 * the change already has it). A socket hears at most one presence message per window, however
 * many actors come and go in it.
 */
export const presenceWindowMs = 1000

export interface PresenceBroadcastParts {
  /** Sends the current presence to every subscribed socket for which `due(connectionId)` holds. */
  readonly send: (due: (connectionId: string) => boolean) => void
  readonly windowMs?: number | undefined
}

export class PresenceBroadcast {
  readonly #parts: PresenceBroadcastParts
  /** Bumped by every change; what each connection was last sent is kept beside it. */
  #version = 0
  readonly #seen = new Map<string, number>()
  #timer: ReturnType<typeof setTimeout> | null = null

  constructor(parts: PresenceBroadcastParts) {
    this.#parts = parts
  }

  /** Someone came online or went offline: tell the others within the window. */
  changed(): void {
    this.#version += 1
    if (this.#timer !== null) return
    this.#timer = setTimeout(() => this.#flush(), this.#parts.windowMs ?? presenceWindowMs)
  }

  /** `connectionId` was just sent the current presence (its welcome). */
  sent(connectionId: string): void {
    this.#seen.set(connectionId, this.#version)
  }

  forget(connectionId: string): void {
    this.#seen.delete(connectionId)
  }

  #flush(): void {
    this.#timer = null
    const version = this.#version
    this.#parts.send((connectionId) => {
      if ((this.#seen.get(connectionId) ?? -1) >= version) return false
      this.#seen.set(connectionId, version)
      return true
    })
  }
}
