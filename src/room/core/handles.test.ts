import assert from 'node:assert/strict'
import { test } from 'node:test'
import { defaultHandle, distinctHandles, freeHandle, handleProblem } from './handles.ts'

test('the default handle is the vendor and the worktree directory, slugged', () => {
  assert.equal(defaultHandle('claude', '/work/wt/Lane_One'), 'claude-lane-one')
  assert.equal(defaultHandle('codex', '/work/wt/lane.two/'), 'codex-lane-two')
  assert.equal(defaultHandle('codex', null), 'codex')
  assert.equal(defaultHandle('claude', '/work/wt/lane-one'), defaultHandle('claude', '/work/wt/lane-one'))
})

test('a taken handle gets the first free -n', () => {
  assert.equal(freeHandle('claude-a', new Set()), 'claude-a')
  assert.equal(freeHandle('claude-a', new Set(['claude-a'])), 'claude-a-2')
  assert.equal(freeHandle('claude-a', new Set(['claude-a', 'claude-a-2'])), 'claude-a-3')
})

test('distinct handles keep first-seen order and give claimed handles priority', () => {
  const handles = distinctHandles([
    { key: 's1', handle: 'claude-a', claimed: false },
    { key: 's2', handle: 'claude-a', claimed: false },
    { key: 's3', handle: 'claude-a', claimed: false },
  ])
  assert.deepEqual([...handles.values()], ['claude-a', 'claude-a-2', 'claude-a-3'])
  const claimed = distinctHandles([
    { key: 's1', handle: 'reviewer', claimed: false },
    { key: 's2', handle: 'reviewer', claimed: true },
  ])
  assert.equal(claimed.get('s2'), 'reviewer')
  assert.equal(claimed.get('s1'), 'reviewer-2')
})

test('handles refuse reserved words and characters outside the shape', () => {
  assert.match(handleProblem('human') ?? '', /reserved/)
  assert.match(handleProblem('Bad Name') ?? '', /not a handle/)
  assert.match(handleProblem('-lead') ?? '', /not a handle/)
  assert.equal(handleProblem('lead-2'), null)
})
