import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { TargetsJson } from '../../helpers/targets-json.ts'
import { type AgentLab, openAgentLab } from '../agent-lab.ts'
import { assertAutoLeaseEnded } from '../auto-lease-ended.ts'
import { startLabDaemon } from '../lab-daemon.ts'
import { ledgerWhen } from '../ledger-waits.ts'

/**
 * The room and delivery with the real opencode 1.18.33 offline: sangam's plugin sends the agent
 * hook a prompt (`chat.message`: UserPromptSubmit), the turn's end (`session.idle`: Stop) and
 * opencode's stop (`dispose`: SessionEnd); the daemon resumes a dormant session through
 * `opencode run --session <id>`, the prompt on stdin.
 */

/** The session's entry in `targets`, after a first `opencode run` ended. */
async function agentOf(lab: AgentLab, sessionId: string | null) {
  assert.ok(sessionId, 'opencode named its session')
  const targets = await lab.sangamJson<TargetsJson>(['targets'])
  const agent = targets.agents.find((entry) => entry.vendor === 'opencode' && entry.sessionId === sessionId)
  assert.ok(agent, `no opencode session in targets: ${JSON.stringify(targets)}\n${lab.heartbeats()}`)
  return agent
}

/** The user messages of a Chat Completions request body, for failure messages. */
function userMessages(body: unknown): unknown[] {
  const messages = (body as { messages?: { role?: string }[] } | undefined)?.messages ?? []
  return messages.filter((message) => message.role === 'user')
}

/** How many times `text` is in the last main model request made after `before` requests. */
function timesInLastRequest(lab: AgentLab, before: number, text: string): number {
  const last = lab.chat.requests
    .slice(before)
    .filter((request) => request.kind === 'main')
    .at(-1)
  return JSON.stringify(last?.body ?? '').split(text).length - 1
}

test("a message to a real opencode session's handle reaches its next prompt exactly once", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const first = await lab.opencode('Start here.', [{ text: 'Ready.' }])
  assert.equal(first.code, 0, first.stderr)
  const agent = await agentOf(lab, first.sessionId)

  const note = 'ROOMNOTE-opencode-7a2e please rebase onto main'
  await lab.sangamJson(['post', '--to', `@${agent.handle}`, note], { SANGAM_USER: 'bob@example.com' })
  const before = lab.chat.requests.length
  const second = await lab.opencode(
    'What is new?',
    [{ text: 'Bob asks me to rebase.' }],
    first.sessionId ?? '',
  )
  assert.equal(second.code, 0, second.stderr)
  assert.equal(
    timesInLastRequest(lab, before, note),
    1,
    `the message is in the next prompt's request once\n${lab.heartbeats()}`,
  )
  // The prompt after it finds nothing new: the message stays where it was put, not added again.
  const after = lab.chat.requests.length
  const third = await lab.opencode('Anything else?', [{ text: 'No.' }], first.sessionId ?? '')
  assert.equal(third.code, 0, third.stderr)
  assert.equal(timesInLastRequest(lab, after, note), 1, 'carried once, kept in the history')
})

test("a real opencode session's end marks it offline and releases its auto-lease", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const file = join(lab.repo.path, 'src', 'c.ts')
  const run = await lab.opencode('Add src/c.ts.', [
    { tool: 'write', input: { filePath: file, content: 'export const c = 3\n' } },
    { text: 'Done.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  const agent = await agentOf(lab, run.sessionId)
  assert.equal(agent.state, 'offline', `its SessionEnd ran when opencode stopped\n${lab.heartbeats()}`)
  await assertAutoLeaseEnded(lab, 'src/c.ts', 'opencode', run.sessionId)
  const events = lab.heartbeats()
  for (const event of ['UserPromptSubmit', 'Stop', 'SessionEnd'])
    assert.match(events, new RegExp(`"event":"${event}"`), `the plugin sent ${event}`)
})

test('a tag to a dormant real opencode session is resumed once by the daemon through opencode run --session', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  lab.chat.scriptTurns([[{ text: 'FIRST-TURN done.' }], [{ text: 'SECOND-TURN-REPLY on it.' }]])
  const first = await lab.opencode('Start here.', undefined)
  assert.equal(first.code, 0, first.stderr)
  const agent = await agentOf(lab, first.sessionId)
  assert.equal(agent.state, 'offline', 'its SessionEnd ran: dormant')
  const listed = await lab.sangamJson<{ sessions: { id: string; delivery: string; why: string }[] }>([
    'sessions',
  ])
  const session = listed.sessions.find((each) => each.id === first.sessionId)
  assert.equal(session?.delivery, 'resume', `sessions says a tag resumes it: ${JSON.stringify(session)}`)

  await using daemon = await startLabDaemon(lab)
  const marker = 'DORMANT-NOTE-oc41'
  const before = lab.chat.requests.length
  await lab.sangamJson(['post', '--to', `@${agent.handle}`, `${marker} the API tests are red`], {
    SANGAM_USER: 'bob@example.com',
  })
  const context = async () =>
    `daemon:\n${daemon.output()}\nledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}\nhooks:\n${lab.heartbeats()}`
  const ledger = await ledgerWhen(
    lab,
    'the resumed turn ending in the ledger',
    // The exit code comes with the turn's end, or just after it when the daemon's sweep saw it first.
    (now) =>
      now.turns.length > 0 && now.turns.every((turn) => turn.state !== 'running' && turn.exitCode !== null),
    { timeoutMs: 90_000, context },
  )
  assert.deepEqual(
    ledger.turns.map((turn) => [turn.sessionId, turn.channel, turn.state, turn.why, turn.exitCode]),
    [[first.sessionId, 'resume', 'ended', 'tag', 0]],
    `one turn, a resume\n${await context()}`,
  )
  assert.deepEqual(
    ledger.deliveries
      .filter((row) => row.sessionId === first.sessionId)
      .map((row) => [row.state, row.channel, row.turnId]),
    [['delivered', 'resume', ledger.turns[0]?.id]],
  )
  const resumed = lab.chat.requests.slice(before).filter((request) => request.kind === 'main')
  assert.ok(resumed.length > 0, `the resumed turn asked the model\n${await context()}`)
  // One delivered prompt among the resumed session's user messages (the brief may quote the
  // session's last prompt too). The prompt hook's room context, which a delivered turn runs like
  // any prompt, repeats the message beside it, as for Claude Code and Codex: the room's cursor
  // does not know what delivery carried.
  const users = JSON.stringify(userMessages(resumed.at(-1)?.body))
  assert.equal(
    users.split('You were tagged in the sangam room by bob@example.com').length - 1,
    1,
    `the fake model's request carries the delivered prompt once\n${users}`,
  )
  assert.ok(users.includes(marker), 'with the tag')
  assert.match(JSON.stringify(resumed.at(-1)?.body), /bob@example\.com/, 'it says who tagged')
  const after = await agentOf(lab, first.sessionId)
  assert.equal(after.state, 'offline', 'the resumed turn ended it again')
})
