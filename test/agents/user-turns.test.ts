import assert from 'node:assert/strict'
import { test } from 'node:test'
import { distinctTurns, locate, perTurn, stepFor } from './user-turns.ts'

/** A history the way both CLIs resend it: prompts, the agent's calls, their results, replies. */
type Item = { kind: 'prompt'; text: string } | { kind: 'call' } | { kind: 'result' } | { kind: 'reply' }

const place = (items: readonly Item[], sessionId: string | null = 's1') =>
  locate(
    items,
    sessionId,
    (item) => item.kind === 'prompt',
    (item) => (item.kind === 'prompt' ? item.text : ''),
    (item) => item.kind === 'call' || item.kind === 'reply',
  )

test('a request is placed in its user turn, its step counted from that prompt', () => {
  assert.deepEqual(place([{ kind: 'prompt', text: 'first' }]), {
    sessionId: 's1',
    index: 0,
    prompt: 'first',
    step: 0,
  })
  const second: Item[] = [
    { kind: 'prompt', text: 'first' },
    { kind: 'call' },
    { kind: 'result' },
    { kind: 'reply' },
    { kind: 'prompt', text: 'second, a resume' },
    { kind: 'call' },
    { kind: 'result' },
  ]
  assert.deepEqual(place(second), { sessionId: 's1', index: 1, prompt: 'second, a resume', step: 1 })
})

test('a history without a prompt counts every call from its start (the single-prompt behaviour)', () => {
  assert.deepEqual(place([{ kind: 'call' }, { kind: 'result' }, { kind: 'call' }]), {
    sessionId: 's1',
    index: 0,
    prompt: '',
    step: 2,
  })
})

test('a step list serves every turn from its start; perTurn gives each turn its own, the last one repeated', () => {
  const position = { sessionId: 's1', index: 1, prompt: 'p', step: 0 }
  assert.equal(stepFor(['a', 'b'], position, 'fallback'), 'a')
  assert.equal(stepFor(['a', 'b'], { ...position, step: 5 }, 'fallback'), 'b', 'past the end: the last step')
  const turns = perTurn([['t0'], ['t1-a', 't1-b']])
  assert.equal(stepFor(turns, { ...position, index: 0 }, 'fallback'), 't0')
  assert.equal(stepFor(turns, { ...position, index: 1, step: 1 }, 'fallback'), 't1-b')
  assert.equal(stepFor(turns, { ...position, index: 7 }, 'fallback'), 't1-a', 'later turns: the last list')
  assert.equal(stepFor([], position, 'fallback'), 'fallback', 'an empty list: the fallback')
  const byPrompt = (turn: { prompt: string }) => (turn.prompt.includes('TAG') ? ['answer the tag'] : ['idle'])
  assert.equal(stepFor(byPrompt, { ...position, prompt: 'sangam: TAG from bob' }, 'x'), 'answer the tag')
})

test('the turns seen are listed once each per session, although one turn spans several requests', () => {
  const turns = distinctTurns([
    { sessionId: 'a', index: 0, prompt: 'first', step: 0 },
    { sessionId: 'a', index: 0, prompt: 'first', step: 1 },
    null,
    { sessionId: 'b', index: 0, prompt: 'other session', step: 0 },
    { sessionId: 'a', index: 1, prompt: 'woken', step: 0 },
    { sessionId: 'a', index: 1, prompt: 'woken', step: 1 },
  ])
  assert.deepEqual(turns, [
    { sessionId: 'a', index: 0, prompt: 'first' },
    { sessionId: 'b', index: 0, prompt: 'other session' },
    { sessionId: 'a', index: 1, prompt: 'woken' },
  ])
})
