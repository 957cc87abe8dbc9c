import { headBranch } from '../../git/git-layout.ts'
import type { Db } from '../../store/db.ts'
import type { DirectoryAgent, DirectoryPerson, DirectoryWorktree, RoomDirectory } from '../core/directory.ts'
import { distinctHandles, personHandle } from '../core/handles.ts'
import { type PresenceEvidence, presenceKey, presenceState } from '../core/presence-state.ts'
import { worktreeTargets } from '../core/worktree-targets.ts'
import { readMachines } from '../store/machine-table.ts'
import { type PresenceRow, readPresence } from '../store/presence-table.ts'
import { readWorktreePlaces } from '../store/worktree-state-table.ts'

/** Where the directory's facts come from besides the presence table. */
export interface DirectorySources {
  /** This machine's id (config/machine-id.ts). */
  readonly machine: string
  /** This machine's worktrees of the project (`Repository.worktrees`, `LocatedProject.worktrees`). */
  readonly worktrees: readonly string[]
  /** The human of this checkout: in the room even before any session of theirs was. */
  readonly human?: string | undefined
  /**
   * `vendor:sessionId` of sessions that opened a human-loop thread still open: they show
   * `blocked`. The thread table provides it (seam: empty until threads exist).
   */
  readonly blocked?: ReadonlySet<string> | undefined
  /** Claude Code's live sessions when it can list them (only `targets` asks), else null. */
  readonly liveClaudeSessions?: ReadonlySet<string> | null | undefined
}

/**
 * Everyone and everywhere the room can address: agent sessions from the presence table (every
 * machine), people (one per human, their chats folded into them, with `sources.human` and the person
 * at each machine of the team among them),
 * worktrees from this machine's git list plus those other machines reported. Handles are made
 * distinct in first-seen order, targets from the set of paths, so every replica agrees.
 */
export function loadDirectory(db: Db, sources: DirectorySources): RoomDirectory {
  const rows = readPresence(db)
  const evidence: PresenceEvidence = {
    blocked: sources.blocked ?? new Set(),
    liveClaudeSessions: sources.liveClaudeSessions ?? null,
  }
  const sessions = rows.filter((row) => row.vendor !== 'human')
  // A teammate is a person of the room once their machine told the team its name (`sangam up`
  // does as it starts), before any chat or agent session of theirs: they can be tagged at once.
  const machinePeople = readMachines(db).flatMap((row) =>
    row.human === null ? [] : [{ human: row.human, machine: row.machine }],
  )
  const names = [
    ...new Set([
      ...rows.map((row) => row.human),
      ...(sources.human ? [sources.human] : []),
      ...machinePeople.map((entry) => entry.human),
    ]),
  ]
  const people = names.map((name) => personHolder(name, rows))
  // A person stands where their first chat stood in first-seen order (so handles stay as they
  // were); people who never chatted come after every session, by name.
  const holders = [
    ...sessions.map((row) => ({
      key: presenceKey(row.vendor, row.sessionId),
      handle: row.handle,
      claimed: row.handleClaimed,
      at: row.firstSeenAt,
      order: 0,
      name: '',
    })),
    ...people.map((person) => ({
      key: personKey(person.name),
      handle: person.handle,
      claimed: person.claimed,
      at: person.firstChatAt ?? Number.POSITIVE_INFINITY,
      order: 1,
      name: person.name,
    })),
  ].sort((a, b) => a.at - b.at || a.order - b.order || a.name.localeCompare(b.name))
  const handles = distinctHandles(holders)
  const agents: DirectoryAgent[] = sessions.map((row) => ({
    handle: handles.get(presenceKey(row.vendor, row.sessionId)) ?? row.handle,
    vendor: row.vendor,
    sessionId: row.sessionId,
    human: row.human,
    state: presenceState({ vendor: row.vendor, sessionId: row.sessionId, stored: row.state }, evidence),
    worktree: row.worktree,
    branch: row.branch,
    machine: row.machine,
    updatedAt: row.updatedAt,
  }))
  const directoryPeople: DirectoryPerson[] = people
    .map((person): DirectoryPerson => {
      const theirs = rows.filter((row) => row.human === person.name)
      const states = [
        ...theirs
          .filter((row) => row.vendor === 'human')
          .map((row) => (row.state === 'offline' ? 'offline' : 'online')),
        ...agents.filter((agent) => agent.human === person.name).map((agent) => agent.state),
      ]
      const machines = new Set([
        ...theirs.map((row) => row.machine),
        ...machinePeople.filter((entry) => entry.human === person.name).map((entry) => entry.machine),
      ])
      if (person.name === sources.human && sources.machine !== '') machines.add(sources.machine)
      return {
        handle: handles.get(personKey(person.name)) ?? person.handle,
        name: person.name,
        state: states.some((state) => state === 'online' || state === 'blocked')
          ? 'online'
          : states.includes('idle')
            ? 'idle'
            : 'offline',
        machines: [...machines].sort(),
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name))

  const places: { path: string; machine: string; branch: string | null }[] = sources.worktrees.map(
    (path) => ({
      path,
      machine: sources.machine,
      branch: headBranch(path),
    }),
  )
  const seen = new Set(places.map((place) => `${place.machine}\0${place.path}`))
  // Other machines' worktrees their daemons shared (room.worktree): the branch they saw last.
  for (const state of readWorktreePlaces(db)) {
    if (state.machine === sources.machine || state.status !== 'present') continue
    seen.add(`${state.machine}\0${state.path}`)
    places.push({ path: state.path, machine: state.machine, branch: state.branch })
  }
  // Newest first, so a remote worktree shows the branch its machine reported last.
  for (const row of [...rows].sort((a, b) => b.updatedAt - a.updatedAt)) {
    if (row.worktree === null || row.machine === sources.machine) continue
    const key = `${row.machine}\0${row.worktree}`
    if (seen.has(key)) continue
    seen.add(key)
    places.push({ path: row.worktree, machine: row.machine, branch: row.branch })
  }
  const targets = worktreeTargets(places.map((place) => place.path))
  const worktrees: DirectoryWorktree[] = places.map((place) => ({
    target: targets.get(place.path) ?? place.path,
    path: place.path,
    machine: place.machine,
    branch: place.branch,
  }))
  return { agents, worktrees, humans: directoryPeople.map((person) => person.name), people: directoryPeople }
}

function personKey(name: string): string {
  return `person:${name}`
}

/**
 * A person's handle before de-duplication: the handle of their chat (the one they claimed, else
 * their first), else one from their name; and where their first chat stands in first-seen order.
 */
function personHolder(
  name: string,
  rows: readonly PresenceRow[],
): { name: string; handle: string; claimed: boolean; firstChatAt: number | null } {
  const chats = rows.filter((row) => row.vendor === 'human' && row.human === name)
  const chosen = chats.filter((row) => row.handleClaimed).sort((a, b) => b.updatedAt - a.updatedAt)[0]
  const first = chats[0]
  return {
    name,
    handle: chosen?.handle ?? first?.handle ?? personHandle(name),
    claimed: chosen !== undefined,
    firstChatAt: first?.firstSeenAt ?? null,
  }
}
