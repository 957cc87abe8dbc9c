import type { Environment } from '../../../config/environment.ts'
import type { Db } from '../../../store/db.ts'
import { recordCodexEndpoint } from '../store/codex-endpoint-table.ts'

export interface CodexEndpointMark {
  readonly sessionId: string | null
  readonly env: Environment
  readonly now: number
}

/**
 * A Codex session whose app-server `sangam codex` started (its environment carries the endpoint and
 * the launcher's pid) records where it lives, so a tag can start a turn in it. Returns that write,
 * which the agent hook makes in the project's store as one of its planned steps (kept for
 * afterwards when the store is busy), or null when the session has no endpoint to record.
 */
export function codexEndpointWrite(mark: CodexEndpointMark): ((db: Db) => void) | null {
  const { env, sessionId } = mark
  if (sessionId === null || env.codexEndpoint === undefined || env.codexLauncherPid === undefined) return null
  const endpoint = {
    sessionId,
    endpoint: env.codexEndpoint,
    launcherPid: env.codexLauncherPid,
    recordedAt: mark.now,
  }
  return (db) => recordCodexEndpoint(db, endpoint)
}
