import { isRecord } from '../../shared/is-record.ts'

/**
 * When an opencode part is final: opencode updates a part in place while it streams (a text grows,
 * a tool goes pending → running → completed), and the journal copies a part once, when it will not
 * change any more. A part left unfinished by a crash is copied as it is once it has not changed
 * for `staleAfterMs`.
 */
export const staleAfterMs = 10 * 60 * 1000

export function isFinalPart(
  part: Readonly<Record<string, unknown>>,
  message: Readonly<Record<string, unknown>>,
  updatedAt: number,
  now: number,
): boolean {
  if (now - updatedAt >= staleAfterMs) return true
  // A finished assistant message (or one that failed) changes none of its parts any more.
  const time = isRecord(message.time) ? message.time : {}
  if (message.role === 'assistant' && (typeof time.completed === 'number' || message.error !== undefined))
    return true
  switch (part.type) {
    case 'tool': {
      const state = isRecord(part.state) ? part.state : {}
      return state.status === 'completed' || state.status === 'error'
    }
    case 'text':
    case 'reasoning': {
      // The person's words are written whole; the agent's stream until `time.end`.
      if (message.role === 'user') return true
      const own = isRecord(part.time) ? part.time : {}
      return typeof own.end === 'number'
    }
    default:
      return true
  }
}
