import { describeActor } from '../../identity/core/actor-names.ts'
import { shortSession } from '../../identity/core/session-id.ts'
import type { BriefSection } from '../../memory/core/brief-assembly.ts'
import { describeAge } from '../../memory/core/brief-lines.ts'
import type { BriefSectionSource } from '../../memory/services/brief-section-source.ts'
import { sessionLastAt } from '../../memory/store/session-activity.ts'
import { machineNames } from '../../room/services/machine-names.ts'
import type { Db } from '../../store/database.ts'
import type { PresenceEntry } from '../protocol/presence.ts'
import { readSyncState } from '../store/state-table.ts'
import { teamActivitySince } from '../store/team-activity.ts'

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
    lines: shown.slice(0, sourceLines).map((entry) => presenceLine(entry, now, lastEventAt(db, entry))),
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
  const names = machineNames(db, null)
  const section: BriefSection = {
    key: 'team-landed',
    title: cursor === null ? 'From the team (last 24 h)' : 'From the team since your last brief',
    lines: sessions.map((session) => {
      const asked = session.lastHuman === null ? '' : ` · last asked: "${oneLine(session.lastHuman)}"`
      const on = session.machine === null ? '' : ` on ${names.label(session.machine)}`
      return `${session.author} · ${session.vendor} session ${shortSession(session.sessionId)}${on} · ${session.events} new event(s), ${describeAge(session.lastAt, now)}${asked}`
    }),
    total,
    empty: 'nothing new',
  }
  return [section]
}

/**
 * The server's `lastActiveAt` is its last push, claim or release: a session's hour-old events
 * pushed now would read as "active just now". When this replica holds the session's events and
 * the newest is older than that, the line says when the session last did something.
 */
function presenceLine(entry: PresenceEntry, now: number, eventAt: number | null): string {
  const who = describeActor(entry.actor)
  if (entry.online)
    return `${who} · online${entry.connections > 1 ? ` (${entry.connections} connections)` : ''}`
  const heard = Date.parse(entry.lastActiveAt ?? '')
  if (eventAt !== null && Number.isFinite(heard) && heard - eventAt >= 60_000)
    return `${who} · last event ${describeAge(eventAt, now)} (heard from ${describeAge(heard, now)})`
  return `${who} · active ${describeAge(heard, now)}`
}

function lastEventAt(db: Db, entry: PresenceEntry): number | null {
  return entry.actor.sessionId === null ? null : sessionLastAt(db, entry.actor.sessionId)
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat
}
