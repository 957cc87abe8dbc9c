import type { DirectoryAgent, DirectoryWorktree, RoomDirectory } from '../../core/room/directory.ts'
import { distinctHandles } from '../../core/room/handles.ts'
import { type PresenceEvidence, presenceKey, presenceState } from '../../core/room/presence-state.ts'
import { worktreeTargets } from '../../core/room/worktree-targets.ts'
import { headBranch } from '../../git/git-layout.ts'
import type { Db } from '../../store/db.ts'
import { readPresence } from '../../store/room/presence-table.ts'
import { readWorktreePlaces } from '../../store/room/worktree-state-table.ts'

/** Where the directory's facts come from besides the presence table. */
export interface DirectorySources {
  /** This machine's id (config/machine-id.ts). */
  readonly machine: string
  /** This machine's worktrees of the project (`Repository.worktrees`, `LocatedProject.worktrees`). */
  readonly worktrees: readonly string[]
  /**
   * `vendor:sessionId` of sessions that opened a human-loop thread still open: they show
   * `blocked`. The thread table provides it (seam: empty until threads exist).
   */
  readonly blocked?: ReadonlySet<string> | undefined
  /** Claude Code's live sessions when it can list them (only `targets` asks), else null. */
  readonly liveClaudeSessions?: ReadonlySet<string> | null | undefined
}

/**
 * Everyone and everywhere the room can address: agents and humans from the presence table (every
 * machine), worktrees from this machine's git list plus those other machines reported. Handles are
 * made distinct in first-seen order, targets from the set of paths, so every replica agrees.
 */
export function loadDirectory(db: Db, sources: DirectorySources): RoomDirectory {
  const rows = readPresence(db)
  const evidence: PresenceEvidence = {
    blocked: sources.blocked ?? new Set(),
    liveClaudeSessions: sources.liveClaudeSessions ?? null,
  }
  const handles = distinctHandles(
    rows.map((row) => ({
      key: presenceKey(row.vendor, row.sessionId),
      handle: row.handle,
      claimed: row.handleClaimed,
    })),
  )
  const agents: DirectoryAgent[] = rows.map((row) => ({
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
  const humans = [...new Set(rows.map((row) => row.human))].sort()
  return { agents, worktrees, humans }
}
