import assert from 'node:assert/strict'
import { test } from 'node:test'
import { deliveryOf } from '../vendors.ts'

const delivery = deliveryOf('gemini')
const id = '0b6f8a52-3c1d-4e7a-9f20-5d4c3b2a1908'
const prompt = 'sangam: bob@example.com tagged you: -p --yolo "$(rm -rf /)" please rebase'

test('a tag resumes a Gemini CLI session headless, the prompt on stdin and nothing of it in argv', () => {
  const command = delivery.command('resume', id, prompt)
  assert.deepEqual(command, { args: ['--resume', id], stdin: prompt })
  // No `-p`/`--prompt` (it would take the prompt in argv) and no approval flag (D405).
  for (const flag of ['-p', '--prompt', '--yolo', '-y', '--approval-mode'])
    assert.ok(!command.args.includes(flag), `${flag} is not passed`)
})

test('Gemini CLI has no queue and no background session: both are a resume', () => {
  for (const channel of ['queue', 'background'] as const)
    assert.deepEqual(delivery.command(channel, id, prompt), { args: ['--resume', id], stdin: prompt })
})

test('a new Gemini CLI session takes the id sangam picks, the prompt on stdin', () => {
  assert.deepEqual(delivery.command('new', id, prompt), { args: ['--session-id', id], stdin: prompt })
  assert.equal(delivery.newSessionIdIn, null)
})

test("whatever Gemini CLI's --help lists, it offers no queue, background session or list of live sessions", () => {
  const help =
    'Usage: gemini [options]\n  --resume, -r  Resume a previous session\n  --bg\n  queue\n  agents\n'
  assert.deepEqual(delivery.helpAbilities(help), { queue: false, background: false, listsAgents: false })
  assert.equal(delivery.listsLiveSessions, false)
})
