import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { RoomMessage } from '../protocol/message.ts'
import { maxContextMessageChars, roomContext } from './room-context.ts'

function message(n: number, text: string): RoomMessage {
  return {
    id: `msg-${String(n).padStart(12, '0')}`,
    kind: 'message',
    topic: null,
    text,
    sender: 'codex-lane-two',
    human: 'asha',
    session: null,
    author: 'agent',
    recipients: ['@claude-lane-one'],
    threadId: null,
    at: Date.parse('2026-12-02T04:05:00Z'),
    worktree: null,
    branch: null,
    head: null,
    handoff: null,
  }
}

const addresses = ['@claude-lane-one', '#lane-one', '@all', '@everyone']

test('nothing to say is an empty text', () => {
  assert.deepEqual(roomContext({ messages: [], total: 0, addresses, budget: 2000 }), {
    text: '',
    shown: 0,
    more: 0,
  })
})

test('past the budget, the closing line counts the rest and names the read that lists them', () => {
  const messages = Array.from({ length: 10 }, (_, i) => message(i + 1, 'x'.repeat(500)))
  const context = roomContext({ messages, total: 30, addresses, budget: 2000 })
  assert.ok(context.text.length <= 2000)
  assert.ok(context.shown >= 1 && context.shown < 10)
  assert.equal(context.more, 30 - context.shown)
  const last = messages[context.shown - 1]?.id
  assert.ok(
    context.text.endsWith(
      `… ${context.more} more for you not shown here: \`sangam read --after ${last}\` lists them.`,
    ),
  )
})

test('one message longer than the budget is cut, never left out', () => {
  const context = roomContext({ messages: [message(1, 'y'.repeat(4000))], total: 1, addresses, budget: 600 })
  assert.equal(context.shown, 1)
  assert.ok(context.text.length <= 600, `${context.text.length}`)
  assert.match(context.text, /y+…/)
  assert.ok(maxContextMessageChars < 4000)
})
