import assert from 'node:assert/strict'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'
import { type InitJson, initEveryHost } from '../init-every-host.ts'

/**
 * `sangam init --yes` registers the MCP server in the project's `.gemini/settings.json`; the real
 * Gemini CLI starts it, offers its tools to the model and calls one on the model's behalf.
 */
test('a real Gemini CLI starts the registered sangam MCP server and its tool call reaches sangam', async () => {
  await using lab = await openAgentLab()
  await initEveryHost(lab)
  const again = await lab.sangamJson<InitJson>(['init', '--yes'])
  assert.equal(again.mcp.hosts.find((host) => host.host === 'gemini')?.outcome, 'registered', 'idempotent')
  await lab.sangamJson(['note', 'The integration lock is a file under .git, not a database row.'])
  const run = await lab.gemini('What did we decide about the integration lock?', [
    { tool: 'mcp_sangam_ctx_search', args: { query: 'integration lock' } },
    { tool: 'mcp_sangam_ctx_note', args: { text: 'Gemini asked again about the integration lock.' } },
    { text: 'It is a file under .git.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  const requests = lab.geminiApi.requests.filter((request) => request.kind === 'main')
  const first = JSON.stringify(requests[0]?.body)
  for (const tool of ['ctx_brief', 'ctx_search', 'ctx_thread', 'ctx_note'])
    assert.match(first, new RegExp(`"name":"mcp_sangam_${tool}"`), `Gemini CLI offers ${tool}`)
  assert.match(
    JSON.stringify(requests.at(-1)?.body),
    /«integration» «lock» is a file under \.git/,
    'the search hit reached the model',
  )
  const note = await lab.sangamJson<{ hits: { sessionId: string }[] }>([
    'search',
    'gemini asked again',
    '--kind',
    'note',
  ])
  assert.equal(note.hits.length, 1, 'the note the model wrote through the MCP tool is in sangam')
})
