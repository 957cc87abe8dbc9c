import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import { handleProblem } from '../core/handles.ts'
import { presenceKey } from '../core/presence-state.ts'
import { type PresenceRow, readPresence } from '../store/presence-table.ts'
import { type CapturedSessionsInput, registerCapturedSessions } from './captured-sessions.ts'
import { loadDirectory } from './directory.ts'
import { type PresenceUpdate, registerPresence, storePresence } from './presence.ts'

export interface IdentifyOutcome {
  readonly agent: {
    readonly handle: string
    readonly previous: string
    readonly vendor: string
    readonly sessionId: string
  }
}

/** What the caller knows besides the presence table (each optional). */
export interface IdentifyContext {
  /** This machine: sessions capture recorded here join the room first (captured-sessions.ts). */
  readonly here?: CapturedSessionsInput | undefined
  /** The caller's own session (an MCP server that knows it): in the room, online, if it was not. */
  readonly self?: PresenceUpdate | undefined
}

/**
 * Claims `handle` for the session `sessionRef` names (its id, a unique prefix of it, or its current
 * handle, with or without `@`). The claim is a presence change like any other (a row and its
 * record), and later presence of the session keeps it. Refused: a reserved or malformed handle, a
 * handle another session that is not offline shows, a reference that names no session or several.
 */
export function identifySession(
  db: Db,
  sessionRef: string,
  wanted: string,
  now: number,
  known: IdentifyContext = {},
): IdentifyOutcome {
  const handle = refuseSecret('the handle', wanted.startsWith('@') ? wanted.slice(1) : wanted)
  const problem = handleProblem(handle)
  if (problem !== null) throw new SangamError(ErrorCode.InvalidInput, `cannot claim @${handle}: ${problem}`)
  const write = db.transaction((): IdentifyOutcome => {
    // A session is in the room once capture saw it or it asks itself, before any hook of its fired.
    if (known.here !== undefined) registerCapturedSessions(db, known.here, now)
    if (known.self !== undefined) registerPresence(db, known.self, now)
    const rows = readPresence(db)
    // The handles the room shows (de-duplicated), not only the stored ones.
    const directory = loadDirectory(db, { machine: '', worktrees: [] })
    const shown = new Map(
      directory.agents.map((agent) => [presenceKey(agent.vendor, agent.sessionId), agent]),
    )
    const row = resolveSession(rows, sessionRef, shown)
    const key = presenceKey(row.vendor, row.sessionId)
    const holder = [...shown.entries()].find(
      ([other, agent]) => other !== key && agent.handle === handle && agent.state !== 'offline',
    )?.[1]
    if (holder !== undefined) {
      throw new SangamError(
        ErrorCode.InvalidInput,
        `@${handle} is held by the ${holder.vendor} session ${holder.sessionId.slice(0, 8)} (${holder.state}); choose another handle`,
      )
    }
    // A person's handle is theirs on every machine; their own chat may claim another for them.
    const person = directory.people.find(
      (candidate) => candidate.handle === handle && !(row.vendor === 'human' && row.human === candidate.name),
    )
    if (person !== undefined) {
      throw new SangamError(
        ErrorCode.InvalidInput,
        `@${handle} is ${person.name}'s handle in the room; choose another handle`,
      )
    }
    const previous = shown.get(key)?.handle ?? row.handle
    if (row.handle !== handle || !row.handleClaimed) {
      storePresence(
        db,
        {
          ...row,
          handle,
          handleClaimed: true,
          updatedAt: Math.max(now, row.updatedAt + 1),
          change: row.change + 1,
        },
        now,
      )
    }
    return { agent: { handle, previous, vendor: row.vendor, sessionId: row.sessionId } }
  })
  return write.immediate()
}

function resolveSession(
  rows: readonly PresenceRow[],
  ref: string,
  shown: ReadonlyMap<string, { readonly handle: string }>,
): PresenceRow {
  const bare = ref.startsWith('@') ? ref.slice(1) : ref
  const exact = rows.filter((row) => row.sessionId === ref)
  if (exact.length === 1) return exact[0] as PresenceRow
  const byHandle = rows.filter((row) => shown.get(presenceKey(row.vendor, row.sessionId))?.handle === bare)
  if (byHandle.length === 1) return byHandle[0] as PresenceRow
  const byPrefix = ref === '' ? [] : rows.filter((row) => row.sessionId.startsWith(ref))
  if (byPrefix.length === 1) return byPrefix[0] as PresenceRow
  if (byPrefix.length > 1 || exact.length > 1) {
    const names = (exact.length > 1 ? exact : byPrefix).map((row) => `${row.vendor} ${row.sessionId}`)
    throw new SangamError(
      ErrorCode.InvalidInput,
      `"${ref}" names ${names.length} sessions (${names.join(', ')}); give more of the session id`,
    )
  }
  throw new SangamError(
    ErrorCode.NotFound,
    `no session "${ref}" in the room: give a session id, a unique prefix of one, or a handle (sangam targets lists them)`,
  )
}
