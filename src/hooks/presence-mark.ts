import type { Environment } from '../config/environment.ts'
import { loadMachineId } from '../config/machine-id.ts'
import { headBranch } from '../git/git-layout.ts'
import type { Actor } from '../identity/protocol/actor.ts'
import type { StoredPresenceState } from '../room/protocol/presence.ts'
import { recordPresence } from '../room/services/presence.ts'
import type { Random } from '../shared/random.ts'
import { openHookStore } from './hook-store.ts'
import type { StepHandle } from './hook-work.ts'
import type { LocatedProject } from './project-locator.ts'

export interface PresenceMark {
  readonly project: LocatedProject
  readonly actor: Actor
  readonly env: Environment
  readonly random: Random
  readonly state: StoredPresenceState
  readonly now: number
}

/** Presence is a short write; past this wait for the lock the hook goes on without it. */
const busyTimeoutMs = 300

/**
 * Records the session's presence from what the hook already knows: the worktree it runs in (the
 * located layout) and its branch, read from HEAD without git. Never throws: presence is a
 * courtesy to the room, and a locked or unreadable store must not change the hook's answer.
 * Returns what went wrong, for the heartbeat's outcome, or null; tells `step`, the run's presence
 * step, whether it was done (hook-work.ts keeps it for afterwards when it was not).
 */
export function markPresence(mark: PresenceMark, step?: StepHandle): string | null {
  const { actor, project } = mark
  if (actor.sessionId === null || actor.vendor === null) return null
  try {
    const machine = loadMachineId(mark.env.sangamHome, mark.random)
    const worktree = project.layout.worktreeRoot
    const db = openHookStore(project.databaseFile, busyTimeoutMs)
    try {
      recordPresence(
        db,
        {
          vendor: actor.vendor,
          sessionId: actor.sessionId,
          human: actor.human,
          worktree,
          branch: headBranch(worktree),
          machine,
          state: mark.state,
        },
        mark.now,
      )
    } finally {
      db.close()
    }
    step?.done()
    return null
  } catch (error) {
    step?.fail(error)
    return `presence not recorded: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`
  }
}
