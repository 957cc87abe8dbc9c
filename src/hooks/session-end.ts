import type { Actor } from '../identity/protocol/actor.ts'
import { chooseLeaseArbiter } from '../project/services/lease-arbiter.ts'
import { type HookAnswer, quiet } from './hook-answer.ts'
import { openHookStore } from './hook-store.ts'
import type { LocatedProject } from './project-locator.ts'

/**
 * SessionEnd: when the project releases a session's leases at its end (the default), they go now
 * rather than lingering until they expire. The lease service checks the setting and logs each
 * release, so the team's brief says the session ended.
 */
export interface SessionEndInput {
  readonly project: LocatedProject
  readonly actor: Actor
  readonly now: number
}

/** Claude gives SessionEnd hooks little time; waiting longer than this for the lock fails open. */
const busyTimeoutMs = 800

export async function endSession(input: SessionEndInput): Promise<HookAnswer> {
  if (input.actor.sessionId === null) return quiet('ignored')
  const db = openHookStore(input.project.databaseFile, busyTimeoutMs)
  try {
    const arbiter = chooseLeaseArbiter(
      db,
      input.project.projectDir,
      { now: () => input.now },
      {
        local: { busyTimeoutMs },
        server: { timeoutMs: busyTimeoutMs },
      },
    )
    const released = await arbiter.releaseSessionLeases(input.actor.sessionId)
    return quiet(`released ${released.length}`)
  } finally {
    db.close()
  }
}
