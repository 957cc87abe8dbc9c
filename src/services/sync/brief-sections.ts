import { describeActor } from '../../core/leases/actor.ts'
import type { BriefSection } from '../../core/memory/brief-assembly.ts'
import { describeAge } from '../../core/memory/brief-lines.ts'
import { shortSession } from '../../core/session-id.ts'
import type { PresenceEntry } from '../../protocol/sync/presence.ts'
import { readSyncState } from '../../store/sync/state-table.ts'
import { teamActivitySince } from '../../store/sync/team-activity.ts'
import type { BriefSectionSource } from '../memory/brief-section-source.ts'

/** Each source hands over at most this many lines; the budget shows fewer. */
const sourceLines = 30
const dayMs = 24 * 60 * 60 * 1000

/**
 * Who the team server sees, as the daemon last heard it (`/presence` and the socket's presence
 * messages, kept in the replica so the brief needs no network): online first, then who was active
 * in the last day. Nothing when the replica is not attached.
 */
export const teamPresence: BriefSectionSource = ({ db, now }) => {
  const state = readSyncState(db)
  if (state?.presence == null || state.presenceAt === null) return []
  const shown = state.presence.filter(
    (entry) => entry.online || (entry.lastActiveAt !== null && now - Date.parse(entry.lastActiveAt) < dayMs),
  )
  const section: BriefSection = {
    key: 'team',
    title: `Team on the server (as of ${describeAge(state.presenceAt, now)})`,
    lines: shown.slice(0, sourceLines).map((entry) => presenceLine(entry, now)),
    total: shown.length,
    empty: 'nobody online or active in the last 24 h',
  }
  return [section]
}

/**
 * What teammates' sessions did that reached this replica since the reader's last brief: the
 * server's order of arrival, so work done offline and shared later still counts as new.
 */
export const landedFromTeam: BriefSectionSource = ({ db, now, cursor }) => {
  if (readSyncState(db) === null) return []
  const since = cursor?.at ?? now - dayMs
  const { sessions, total } = teamActivitySince(db, since, sourceLines)
  const section: BriefSection = {
    key: 'team-landed',
    title: cursor === null ? 'From the team (last 24 h)' : 'From the team since your last brief',
    lines: sessions.map((session) => {
      const asked = session.lastHuman === null ? '' : ` · last asked: "${oneLine(session.lastHuman)}"`
      return `${session.author} · ${session.vendor} session ${shortSession(session.sessionId)} · ${session.events} new event(s), ${describeAge(session.lastAt, now)}${asked}`
    }),
    total,
    empty: 'nothing new',
  }
  return [section]
}

function presenceLine(entry: PresenceEntry, now: number): string {
  const who = describeActor(entry.actor)
  if (entry.online)
    return `${who} · online${entry.connections > 1 ? ` (${entry.connections} connections)` : ''}`
  return `${who} · active ${describeAge(Date.parse(entry.lastActiveAt ?? ''), now)}`
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat
}
