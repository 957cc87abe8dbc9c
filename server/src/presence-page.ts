import type { PresenceEntry } from '../../src/sync/protocol/presence.ts'

/** A bounded prefix of the presence list, and how many entries it left out. */
export interface PresencePage {
  readonly presence: readonly PresenceEntry[]
  /** The JSON of `presence`, built once for every socket it goes to. */
  readonly json: string
  readonly omitted: number
}

/**
 * Cloudflare refuses WebSocket messages over 1 MiB. Presence on a socket keeps to a quarter of
 * that in characters (so even three-byte characters fit) and to this many entries; the list is
 * sorted online first, then by recent activity, so what is cut is the longest idle.
 */
export const socketPresenceLimits = { maxEntries: 300, maxChars: 256 * 1024 } as const
/** `GET …/presence` is bounded too, more loosely: it is one HTTP answer, not a message. */
export const httpPresenceLimits = { maxEntries: 2000, maxChars: 2 * 1024 * 1024 } as const

export function presencePage(
  entries: readonly PresenceEntry[],
  limits: { readonly maxEntries: number; readonly maxChars: number },
): PresencePage {
  const kept: PresenceEntry[] = []
  const parts: string[] = []
  let chars = 2
  for (const entry of entries) {
    if (parts.length >= limits.maxEntries) break
    const json = JSON.stringify(entry)
    // One entry too long to fit (an actor pushed with a huge name) is left out, not the rest.
    if (chars + json.length + 1 > limits.maxChars) continue
    kept.push(entry)
    parts.push(json)
    chars += json.length + 1
  }
  return { presence: kept, json: `[${parts.join(',')}]`, omitted: entries.length - kept.length }
}
