import { headBranch } from '../../git/git-layout.ts'
import type { Db } from '../../store/db.ts'
import { unregisteredLocalSessions } from '../store/presence-table.ts'
import { registerPresence } from './presence.ts'

/** How far back a session capture saw is brought into the room (as far as `sessions` looks). */
export const capturedSessionWindowMs = 14 * 24 * 60 * 60_000
/**
 * A session whose transcript moved this recently is registered `idle` (it may still be open in a
 * terminal, so delivery never starts a turn beside it); an older one `offline` (dormant).
 */
export const capturedSessionRestMs = 24 * 60 * 60_000

export interface CapturedSessionsInput {
  /** This machine's id: the sessions are registered as its own. */
  readonly machine: string
  /** This machine's worktrees of the project: a session's cwd is placed in the one holding it. */
  readonly worktrees: readonly string[]
}

/**
 * One directory of sessions: every agent session capture recorded on this machine is in the room,
 * whether or not its hooks ever ran (hooks not installed, a host without them, a session started
 * before `install-hooks`). Each one with no presence gets a row and its `room.presence` record, as
 * a hook's first write would make, so `targets`, `sessions`, `send`, the board and the dashboard
 * of every machine list it, with this machine. The daemon calls it after each capture; `index` and
 * `identify` too. Returns how many it registered.
 */
export function registerCapturedSessions(db: Db, input: CapturedSessionsInput, now: number): number {
  const sessions = unregisteredLocalSessions(db, now - capturedSessionWindowMs)
  let registered = 0
  for (const session of sessions) {
    const worktree = holdingWorktree(input.worktrees, session.cwd)
    const wrote = registerPresence(
      db,
      {
        vendor: session.vendor,
        sessionId: session.id,
        human: session.author,
        worktree,
        branch: (worktree === null ? null : headBranch(worktree)) ?? session.branch,
        machine: input.machine,
        state: now - session.lastAt < capturedSessionRestMs ? 'idle' : 'offline',
      },
      now,
    )
    if (wrote) registered += 1
  }
  return registered
}

/** The deepest worktree holding `cwd`, else `cwd` itself (a worktree removed since); null for none. */
export function holdingWorktree(worktrees: readonly string[], cwd: string | null): string | null {
  if (cwd === null) return null
  const holder = [...worktrees]
    .sort((a, b) => b.length - a.length)
    .find((path) => cwd === path || cwd.startsWith(`${path}/`))
  return holder ?? cwd
}
