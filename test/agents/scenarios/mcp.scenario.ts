import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'
import { initEveryHost } from '../init-every-host.ts'

/**
 * `sangam init --yes` registers the MCP server; the real Claude Code then starts it and calls
 * ctx_search and ctx_note on the model's behalf, and the real Codex starts it and offers its tools
 * to the model. Everything is asserted from what the CLIs sent to the fake model servers.
 */
test('real Claude Code and Codex start the registered sangam MCP server and use its tools', async () => {
  await using lab = await openAgentLab()
  await initEveryHost(lab)
  await lab.sangamJson(['note', 'The integration lock is a file under .git, not a database row.'])
  // What a user does once when Claude Code asks: trust the project's servers and allow the tools.
  const claudeConfig = lab.env.CLAUDE_CONFIG_DIR ?? ''
  mkdirSync(claudeConfig, { recursive: true })
  writeFileSync(
    join(claudeConfig, 'settings.json'),
    JSON.stringify({ enableAllProjectMcpServers: true, permissions: { allow: ['mcp__sangam'] } }),
  )

  // Claude Code hands its environment to the servers it starts: the note's author shows it.
  Object.assign(lab.env, { SANGAM_USER: 'lead@example.com' })
  // Hosts start MCP servers beside the session: a first command gives ours time to be listed.
  const claude = await lab.claude('What did we decide about the integration lock?', [
    { tool: 'Bash', input: { command: 'sleep 2' } },
    { tool: 'mcp__sangam__ctx_search', input: { query: 'integration lock' } },
    { tool: 'mcp__sangam__ctx_note', input: { text: 'Asked again about the integration lock.' } },
    { text: 'It is a file under .git.' },
  ])
  assert.equal(claude.code, 0, claude.stderr)
  const requests = lab.anthropic.requests.filter((request) => request.kind === 'main')
  // MCP tools are deferred: a request names them, and ToolSearch would load their schemas.
  const conversation = JSON.stringify(requests.at(-1)?.body)
  for (const tool of ['ctx_brief', 'ctx_search', 'ctx_thread', 'ctx_note']) {
    assert.match(conversation, new RegExp(`mcp__sangam__${tool}`), `Claude Code offers ${tool}`)
  }
  // Claude Code hands the model the structured result (JSON), not the text rendering.
  assert.match(
    conversation,
    /The «integration» «lock» is a file under \.git, not a database row/,
    'the hit reached the model',
  )
  const agentNote = await lab.sangamJson<{ hits: { sessionId: string; author: string }[] }>([
    'search',
    'asked again',
    '--kind',
    'note',
  ])
  assert.deepEqual(
    agentNote.hits.map((hit) => [hit.author, hit.sessionId]),
    [['lead@example.com', claude.sessionId]],
    "the note is the Claude session's, for the human of its environment",
  )

  // Likewise Codex: the namespace may only show from the second request on.
  const codex = await lab.codex('What did we decide about the integration lock?', [
    { shell: 'sleep 2' },
    { text: 'A file.' },
  ])
  assert.equal(codex.code, 0, codex.stderr)
  const codexRequests = lab.openai.requests.filter((request) => request.kind === 'main')
  process.stderr.write(
    `CODEXNS ${codexRequests.map((r) => /mcp__sangam: sangam is/.test(JSON.stringify(r.body))).join(',')}\n`,
  )
  assert.match(
    JSON.stringify(codexRequests.at(-1)?.body),
    /mcp__sangam: sangam is this project's shared memory/,
    'Codex started the server and offers its tools',
  )
})
