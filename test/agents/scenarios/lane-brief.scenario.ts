import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'
import { syncLane } from '../sync-lane.ts'

/**
 * An agent starting in a lane is told, before it edits, where its lane stands and who holds the
 * integration lock: the SessionStart brief's lanes section reaches the first model request of a
 * real Claude Code and a real Codex session run in the lane's worktree.
 */
test('a real Claude Code and Codex session in a lane get its state, next step and the lock holder in their first request', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  // The project's hook settings are committed, as a team shares them, so every lane has them too.
  lab.repo.commit('sangam hooks')
  const lane = async (name: string) =>
    (await lab.sangamJson<{ lane: { worktree: string } }>(['lane', name, '--no-agent'])).lane.worktree
  const alice = await lane('alice')
  const bob = await lane('bob')
  const sync = (worktree: string) => syncLane(lab, worktree)
  writeFileSync(join(alice, 'src', 'a.ts'), 'export const a = "alice"\n')
  assert.equal((await sync(alice)).outcome, 'published-direct')
  // bob changed the same line: his lane gets a semantic task, and with it the lock.
  writeFileSync(join(bob, 'src', 'a.ts'), 'export const a = "bob"\n')
  const started = await sync(bob)
  assert.equal(started.outcome, 'task-started')
  // alice has new work waiting while bob holds the lock.
  writeFileSync(join(alice, 'src', 'b.ts'), 'export const b = "alice"\n')
  const expected = [
    /You work in lane alice \(branch lane\/alice\): dirty\. Next: wait for lane bob to publish, then run sangam sync\./,
    new RegExp(
      `Integration lock: lane bob \\(dev@example\\.com\\), task ${started.task?.id}, held \\d+ min\\.`,
    ),
    /Never move main by hand/,
  ]

  const claude = await lab.claude(
    'Where does my lane stand?',
    [{ text: 'Waiting for bob.' }],
    undefined,
    alice,
  )
  assert.equal(claude.code, 0, claude.stderr)
  const firstClaude = JSON.stringify(lab.anthropic.requests.find((request) => request.kind === 'main')?.body)
  for (const line of expected) assert.match(firstClaude, line, lab.heartbeats())

  const codex = await lab.codex('Where does my lane stand?', [{ text: 'Waiting for bob.' }], undefined, alice)
  assert.equal(codex.code, 0, codex.stderr)
  const firstCodex = JSON.stringify(lab.openai.requests.find((request) => request.kind === 'main')?.body)
  for (const line of expected) assert.match(firstCodex, line, lab.heartbeats())
})
