import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openAgentLab } from '../agent-lab.ts'

/**
 * The fake model servers script each user turn of a conversation on its own: a resumed session's
 * second prompt walks its own steps from the first (here a tool call, which the old
 * count-from-the-start servers could not give a second prompt), and the server records each
 * turn's prompt once, however many requests the turn took.
 */
test('a resumed real Claude Code session walks its second turn’s own script, and each prompt is recorded once', async () => {
  await using lab = await openAgentLab()
  lab.anthropic.scriptTurns([
    [{ tool: 'Bash', input: { command: 'touch first.txt', description: 'first' } }, { text: 'One.' }],
    [{ tool: 'Bash', input: { command: 'touch second.txt', description: 'second' } }, { text: 'Two.' }],
  ])
  const first = await lab.claude('TURN-ONE start', undefined)
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const second = await lab.claude('TURN-TWO go on', undefined, first.sessionId)
  assert.equal(second.code, 0, second.stderr)
  assert.ok(existsSync(join(lab.repo.path, 'second.txt')), 'the second turn ran its own first step')
  assert.deepEqual(
    lab.anthropic.turns().map((turn) => [turn.sessionId, turn.index, turn.prompt]),
    [
      [first.sessionId, 0, 'TURN-ONE start'],
      [first.sessionId, 1, 'TURN-TWO go on'],
    ],
  )
  assert.equal(lab.anthropic.promptsWith('TURN-TWO').length, 1, 'two requests, one turn')
})

test('a resumed real Codex thread walks its second turn’s own script, and each prompt is recorded once', async () => {
  await using lab = await openAgentLab()
  lab.openai.scriptTurns([
    [{ shell: 'touch first.txt' }, { text: 'One.' }],
    [{ shell: 'touch second.txt' }, { text: 'Two.' }],
  ])
  const first = await lab.codex('TURN-ONE start', undefined)
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const second = await lab.codex('TURN-TWO go on', undefined, first.sessionId)
  assert.equal(second.code, 0, second.stderr)
  assert.ok(existsSync(join(lab.repo.path, 'second.txt')), 'the second turn ran its own first step')
  assert.deepEqual(
    lab.openai.turns().map((turn) => [turn.sessionId, turn.index, turn.prompt]),
    [
      [first.sessionId, 0, 'TURN-ONE start'],
      [first.sessionId, 1, 'TURN-TWO go on'],
    ],
  )
  assert.equal(lab.openai.promptsWith('TURN-TWO').length, 1, 'two requests, one turn')
})
