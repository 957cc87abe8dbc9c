import { runCliJson } from '../helpers/run-cli.ts'
import type { SyncJson } from '../helpers/sync-json.ts'
import type { AgentLab } from './agent-lab.ts'

/**
 * `sangam sync --json` in one of the lab's lane worktrees, which must succeed. A sync may merge,
 * take the integration lock and hand a task to a real CLI: two minutes before it is a hang.
 */
export function syncLane(lab: AgentLab, worktree: string): Promise<SyncJson> {
  return runCliJson<SyncJson>(['sync'], { cwd: worktree, env: lab.env, timeoutMs: 120_000 })
}
