import type { Environment } from '../../../config/environment.ts'
import { openHookStore } from '../../../hooks/hook-store.ts'
import type { StepHandle } from '../../../hooks/hook-work.ts'
import type { LocatedProject } from '../../../hooks/project-locator.ts'
import { recordCodexEndpoint } from '../store/codex-endpoint-table.ts'

export interface CodexEndpointMark {
  readonly project: LocatedProject
  readonly sessionId: string | null
  readonly env: Environment
  readonly now: number
}

/** A short write, like presence: past this wait for the lock the hook goes on without it. */
const busyTimeoutMs = 300

/**
 * A Codex session whose app-server `sangam codex` started (its environment carries the endpoint and
 * the launcher's pid) records where it lives, so a tag can start a turn in it. Never throws: the
 * hook's answer must not depend on it. Returns what went wrong, for the heartbeat, or null.
 */
export function markCodexEndpoint(mark: CodexEndpointMark, step?: StepHandle): string | null {
  const { env, sessionId } = mark
  if (sessionId === null || env.codexEndpoint === undefined || env.codexLauncherPid === undefined) return null
  try {
    const db = openHookStore(mark.project.databaseFile, busyTimeoutMs)
    try {
      recordCodexEndpoint(db, {
        sessionId,
        endpoint: env.codexEndpoint,
        launcherPid: env.codexLauncherPid,
        recordedAt: mark.now,
      })
    } finally {
      db.close()
    }
    step?.done()
    return null
  } catch (error) {
    step?.fail(error)
    return `codex endpoint not recorded: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`
  }
}
