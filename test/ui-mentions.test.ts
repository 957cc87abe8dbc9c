import assert from 'node:assert/strict'
import { test } from 'node:test'
import { completeMention, matchTargets, mentionAt, mentionTargets } from '../web/parts/mention-candidates.ts'

/** The composer's @handle / #worktree completion, the pure part (the browser part: test/ui-browser). */

const targets = mentionTargets({
  agents: [
    { handle: 'claude-lane-one', vendor: 'claude', state: 'online' },
    { handle: 'codex-lane-two', vendor: 'codex', state: 'idle' },
    { handle: 'reviewer-claude', vendor: 'claude', state: 'offline' },
  ],
  worktrees: [
    { target: 'lane-one', branch: 'h/lane-one' },
    { target: 'repo', branch: null },
  ],
})

test('the targets are every agent by handle, @human, and every worktree by target, each once', () => {
  assert.deepEqual(
    targets.map((target) => target.name),
    ['@claude-lane-one', '@codex-lane-two', '@reviewer-claude', '@human', '#lane-one', '#repo'],
  )
  assert.equal(targets[0]?.detail, 'claude · online')
  assert.equal(targets.at(-1)?.detail, 'detached')
  const twice = mentionTargets({
    agents: [
      { handle: 'human', vendor: null, state: 'idle' },
      { handle: 'a', vendor: null, state: 'idle' },
      { handle: 'a', vendor: null, state: 'idle' },
    ],
    worktrees: [],
  })
  assert.deepEqual(
    twice.map((target) => target.name),
    ['@human', '@a'],
  )
})

test('a mention is found only right before the caret, after a space, a bracket, a comma or at the start', () => {
  assert.deepEqual(mentionAt('hi @cla', 7), { start: 3, typed: '@cla' })
  assert.deepEqual(mentionAt('@', 1), { start: 0, typed: '@' })
  assert.deepEqual(mentionAt('see (#lan', 9), { start: 5, typed: '#lan' })
  assert.deepEqual(mentionAt('a,@x', 4), { start: 2, typed: '@x' })
  assert.equal(mentionAt('mail me at asha@example', 23), null, 'an address is not a mention')
  assert.equal(mentionAt('hi @cla there', 13), null, 'the caret is past the word')
  assert.deepEqual(mentionAt('hi @cla there', 7), { start: 3, typed: '@cla' }, 'the caret inside the text')
  assert.equal(mentionAt('', 0), null)
})

test('matches: prefix first, then inside the name, by sigil, ignoring case, at most the limit', () => {
  assert.deepEqual(
    matchTargets(targets, '@cl').map((target) => target.name),
    ['@claude-lane-one', '@reviewer-claude'],
  )
  assert.deepEqual(
    matchTargets(targets, '@LANE').map((target) => target.name),
    ['@claude-lane-one', '@codex-lane-two'],
  )
  assert.deepEqual(
    matchTargets(targets, '#').map((target) => target.name),
    ['#lane-one', '#repo'],
  )
  assert.equal(matchTargets(targets, '@', 2).length, 2)
  assert.deepEqual(matchTargets(targets, '@zzz'), [])
})

test('completing replaces the typed part, adds one space, and puts the caret after it', () => {
  assert.deepEqual(completeMention('hi @cla', 3, '@cla', '@claude-lane-one'), {
    text: 'hi @claude-lane-one ',
    caret: 20,
  })
  assert.deepEqual(completeMention('hi @cla there', 3, '@cla', '@claude-lane-one'), {
    text: 'hi @claude-lane-one there',
    caret: 20,
  })
})
