import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseMentions } from './mentions.ts'

test('@handle and #worktree outside code are mentions, in order, once each', () => {
  assert.deepEqual(
    parseMentions('@claude-lane-one please sync with #lane-two, then @human. @claude-lane-one'),
    {
      handles: ['claude-lane-one', 'human'],
      worktrees: ['lane-two'],
    },
  )
})

test('#include and @param inside fenced blocks and code spans are not recipients', () => {
  const text = [
    'see the snippet:',
    '```c',
    '#include <stdio.h>',
    '/** @param x the value */',
    '```',
    '~~~',
    '@decorator',
    '~~~',
    'and `@param y` or ``#pragma once`` inline',
  ].join('\n')
  assert.deepEqual(parseMentions(text), { handles: [], worktrees: [] })
})

test('an email address is not a mention; a trailing full stop is not part of a name', () => {
  assert.deepEqual(parseMentions('mail asha@example.com or ask @codex-lane.'), {
    handles: ['codex-lane'],
    worktrees: [],
  })
})

test('an unclosed backtick hides nothing', () => {
  assert.deepEqual(parseMentions('a ` stray tick, then @lane'), { handles: ['lane'], worktrees: [] })
})
