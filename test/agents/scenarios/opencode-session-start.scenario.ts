import assert from 'node:assert/strict'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'

/**
 * sangam's opencode plugin asks the hook for the session's brief when opencode assembles the first
 * system prompt, and keeps it there: the brief, leases included, is in the first model request of
 * a real opencode session.
 */
test('the brief, with the leases, reaches the first model request of a real opencode session', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })
  const run = await lab.opencode('What is going on in this project?', [
    { text: 'Bob is rewriting the parser.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  const first = JSON.stringify(lab.chat.requests.find((request) => request.kind === 'main')?.body)
  assert.match(
    first,
    /sangam brief for dev@example\.com's opencode session/,
    `hooks saw:\n${lab.heartbeats()}`,
  )
  assert.match(
    first,
    /src\/a\.ts: bob@example\.com until .{0,60}rewriting the parser/,
    'the lease is in the brief',
  )
})
