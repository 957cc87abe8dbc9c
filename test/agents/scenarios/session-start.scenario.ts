import assert from 'node:assert/strict'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'

/**
 * SessionStart puts the brief, leases included, into the context window: the fake model servers
 * log every request, so the test reads what the real CLIs sent in their very first turn.
 */
test('the brief, with the leases, reaches the first model request of a real Claude Code and Codex session', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })

  const claude = await lab.claude('What is going on in this project?', [
    { text: 'Bob is rewriting the parser.' },
  ])
  assert.equal(claude.code, 0, claude.stderr)
  const firstClaude = JSON.stringify(lab.anthropic.requests.find((request) => request.kind === 'main')?.body)
  assert.match(
    firstClaude,
    /SessionStart hook additional context: sangam brief for dev@example\.com's claude session/,
  )
  assert.match(
    firstClaude,
    /src\/a\.ts: bob@example\.com until .{0,60}rewriting the parser/,
    'the lease is in the brief',
  )

  const codex = await lab.codex('What is going on in this project?', [
    { text: 'Bob is rewriting the parser.' },
  ])
  assert.equal(codex.code, 0, codex.stderr)
  const firstCodex = JSON.stringify(lab.openai.requests.find((request) => request.kind === 'main')?.body)
  assert.match(firstCodex, /sangam brief for dev@example\.com's codex session/)
  assert.match(
    firstCodex,
    /src\/a\.ts: bob@example\.com until .{0,60}rewriting the parser/,
    'the lease is in the brief',
  )
})
