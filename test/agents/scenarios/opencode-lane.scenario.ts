import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'
import { syncLane } from '../sync-lane.ts'

/**
 * `lane --agent opencode` gives the lane the main worktree's opencode plugin (D415), so a real
 * opencode session in the lane is in the room; the semantic task its lane's sync starts reaches
 * it through delivery: the dormant session is resumed with it (`opencode run --session`).
 */
test("a lane's semantic task reaches the real opencode session that worked in the lane, resumed once", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const lane = async (name: string) =>
    (await lab.sangamJson<{ lane: { worktree: string } }>(['lane', name, '--agent', 'opencode'])).lane
      .worktree
  const alice = await lane('alice')
  const bob = await lane('bob')
  const sync = (worktree: string) => syncLane(lab, worktree)
  // bob's opencode session works in his lane first (its presence names the lane's worktree).
  const first = await lab.opencode('Where does my lane stand?', [{ text: 'Clean.' }], undefined, bob)
  assert.equal(first.code, 0, first.stderr)
  writeFileSync(join(alice, 'src', 'a.ts'), 'export const a = "alice"\n')
  assert.equal((await sync(alice)).outcome, 'published-direct')
  // bob changed the same line: his lane gets a semantic task, which delivery carries to his
  // (dormant) opencode session by resuming it.
  writeFileSync(join(bob, 'src', 'a.ts'), 'export const a = "bob"\n')
  const before = lab.chat.requests.length
  const started = await sync(bob)
  assert.equal(started.outcome, 'task-started')
  const task = started.task?.id
  assert.ok(task)
  const deadline = Date.now() + 90_000
  const reached = () =>
    lab.chat.requests
      .slice(before)
      .some((request) => request.kind === 'main' && JSON.stringify(request.body).includes(task))
  while (!reached()) {
    assert.ok(
      Date.now() < deadline,
      `the task never reached the model\n${(await lab.sangam(['deliveries', '--json'])).stdout}\n${lab.heartbeats()}`,
    )
    await new Promise((done) => setTimeout(done, 200))
  }
  const ledger = await lab.sangamJson<{ turns: { sessionId: string; channel: string }[] }>(['deliveries'])
  assert.deepEqual(
    ledger.turns.map((turn) => [turn.sessionId, turn.channel]),
    [[first.sessionId, 'resume']],
    "one resume of the lane's opencode session",
  )
})
