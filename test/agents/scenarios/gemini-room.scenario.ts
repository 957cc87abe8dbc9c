import assert from 'node:assert/strict'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'

/**
 * A message tagged to a real Gemini CLI session's handle reaches that session's next prompt once.
 * In headless mode every prompt is a new process: SessionStart (source `resume`) runs first and
 * carries it; BeforeAgent then has nothing new.
 */
test("a message to a real Gemini CLI session's handle reaches its next prompt exactly once", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const first = await lab.gemini('Start here.', [{ text: 'Ready.' }])
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stderr)
  const targets = await lab.sangamJson<{ agents: { handle: string; vendor: string; sessionId: string }[] }>([
    'targets',
  ])
  const agent = targets.agents.find((a) => a.vendor === 'gemini' && a.sessionId === first.sessionId)
  assert.ok(agent, `no gemini session in targets: ${JSON.stringify(targets)}\n${lab.heartbeats()}`)

  const note = 'ROOMNOTE-gemini-5c1d please rebase onto main'
  await lab.sangamJson(['post', '--to', `@${agent.handle}`, note], { SANGAM_USER: 'bob@example.com' })
  const before = lab.geminiApi.requests.length
  const second = await lab.gemini('What is new?', [{ text: 'Bob asks me to rebase.' }], first.sessionId)
  assert.equal(second.code, 0, second.stderr)
  const last = lab.geminiApi.requests
    .slice(before)
    .filter((request) => request.kind === 'main')
    .at(-1)
  assert.equal(
    JSON.stringify(last?.body).split(note).length - 1,
    1,
    `the message is in the resumed session's request once\n${lab.heartbeats()}`,
  )
})
