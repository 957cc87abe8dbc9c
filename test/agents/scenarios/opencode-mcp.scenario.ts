import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'
import { initEveryHost } from '../init-every-host.ts'

/**
 * `sangam init --yes` registers the MCP server in the project's opencode.json; the real opencode
 * starts it, offers its tools (as `sangam_<tool>`) and calls ctx_search on the model's behalf.
 */
test('the real opencode starts the sangam MCP server registered by init and its tool call reaches sangam', async () => {
  await using lab = await openAgentLab()
  await initEveryHost(lab)
  const config = JSON.parse(readFileSync(join(lab.repo.path, 'opencode.json'), 'utf8'))
  assert.equal(config.mcp.sangam.type, 'local')
  await lab.sangamJson(['note', 'The integration lock is a file under .git, not a database row.'])
  const run = await lab.opencode('What did we decide about the integration lock?', [
    { tool: 'sangam_ctx_search', input: { query: 'integration lock' } },
    { text: 'It is a file under .git.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  const requests = lab.chat.requests.filter((request) => request.kind === 'main')
  const tools = (
    (requests[0]?.body as { tools?: { function?: { name?: string } }[] } | undefined)?.tools ?? []
  ).map((tool) => tool.function?.name)
  for (const tool of ['sangam_ctx_brief', 'sangam_ctx_search', 'sangam_ctx_thread', 'sangam_ctx_note'])
    assert.ok(tools.includes(tool), `opencode offers ${tool}: ${tools.join(', ')}`)
  assert.match(
    JSON.stringify(requests.at(-1)?.body),
    /integration.{0,12}lock.{0,20} is a file under \.git, not a database row/,
    'the hit reached the model',
  )
})
