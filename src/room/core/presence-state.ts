import type { StoredPresenceState } from '../protocol/presence.ts'
import type { PresenceState } from './directory.ts'

export interface PresenceFacts {
  readonly vendor: string
  readonly sessionId: string
  readonly stored: StoredPresenceState
}

export interface PresenceEvidence {
  /** `vendor:sessionId` of sessions that opened a human-loop thread still open. */
  readonly blocked: ReadonlySet<string>
  /**
   * Claude Code's own list of live sessions (`claude agents --json`), or null when it cannot
   * tell; an idle Claude session absent from it has gone without a SessionEnd.
   */
  readonly liveClaudeSessions: ReadonlySet<string> | null
}

export function presenceKey(vendor: string, sessionId: string): string {
  return `${vendor}:${sessionId}`
}

/**
 * The state the room shows: offline stays offline; a session waiting on a human is blocked;
 * an idle Claude session Claude no longer lists is offline; otherwise what was stored.
 */
export function presenceState(facts: PresenceFacts, evidence: PresenceEvidence): PresenceState {
  if (facts.stored === 'offline') return 'offline'
  if (evidence.blocked.has(presenceKey(facts.vendor, facts.sessionId))) return 'blocked'
  if (
    facts.vendor === 'claude' &&
    facts.stored === 'idle' &&
    evidence.liveClaudeSessions !== null &&
    !evidence.liveClaudeSessions.has(facts.sessionId)
  ) {
    return 'offline'
  }
  return facts.stored
}
