import type { SyncError } from '../protocol/error.ts'

/** What the push loop does after one push (or after finding nothing to push). */
export type PushStep =
  | { readonly kind: 'sent' }
  | { readonly kind: 'idle'; readonly recheckAt: number | null }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'shrink'; readonly maxRecords: number }

/**
 * What a push the server refused asks for, the same for events and for queued records: wait when
 * rate-limited, halve a push that was too big, retry a refused batch one record at a time, and pass
 * over the one record the server will never take (`skip`: it stays on this machine, and must not
 * hold up every record after it). `quota` and `fatal` are the replicator's to say.
 */
export function afterRefusedPush(
  error: SyncError['error'],
  sent: number,
): PushStep | { readonly kind: 'skip' | 'quota' | 'fatal' } {
  switch (error.code) {
    case 'RATE_LIMITED':
      return { kind: 'wait', ms: error.retryAfterMs ?? 1000 }
    case 'TOO_MANY_RECORDS':
    case 'BODY_TOO_LARGE':
      return { kind: 'shrink', maxRecords: Math.max(1, Math.floor(sent / 2)) }
    case 'QUOTA_EXCEEDED':
      return { kind: 'quota' }
    case 'INVALID_REQUEST':
      return sent > 1 ? { kind: 'shrink', maxRecords: 1 } : { kind: 'skip' }
    default:
      return { kind: 'fatal' }
  }
}
