import assert from 'node:assert/strict'
import type { AgentLab } from './agent-lab.ts'

interface LeasesOverview {
  leases: unknown[]
  history: { action: string; pattern: string; holder: { vendor: string | null; sessionId: string | null } }[]
}

/**
 * What every vendor's edit gate promises once a real session has edited `path` and ended: the
 * edit took an auto-lease in that session's name, and its SessionEnd released it, so no lease is
 * left and the history holds exactly that one ending.
 */
export async function assertAutoLeaseEnded(
  lab: AgentLab,
  path: string,
  vendor: string,
  sessionId: string | null,
): Promise<void> {
  const overview = await lab.sangamJson<LeasesOverview>(['leases'])
  assert.deepEqual(
    overview.leases,
    [],
    `SessionEnd released it, no lease outlives the session\n${lab.heartbeats()}`,
  )
  assert.deepEqual(
    overview.history.map((entry) => [
      entry.action,
      entry.pattern,
      entry.holder.vendor,
      entry.holder.sessionId,
    ]),
    [['session-ended', path, vendor, sessionId]],
    `the auto-lease its edit took was recorded and ended with it (hooks saw:\n${lab.heartbeats()})`,
  )
}
