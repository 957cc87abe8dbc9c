import assert from 'node:assert/strict'
import type { AgentLab } from './agent-lab.ts'

export interface InitJson {
  mcp: { hosts: { host: string; outcome: string }[] }
}

/**
 * `sangam init --yes` in a fresh lab, where it must add the MCP server to every host it knows:
 * each MCP scenario starts from this and then drives one real CLI against the registration.
 */
export async function initEveryHost(lab: AgentLab): Promise<InitJson> {
  const init = await lab.sangamJson<InitJson>(['init', '--yes'])
  assert.deepEqual(
    init.mcp.hosts.map((host) => [host.host, host.outcome]),
    [
      ['claude', 'added'],
      ['codex', 'added'],
      ['gemini', 'added'],
      ['opencode', 'added'],
    ],
  )
  return init
}
