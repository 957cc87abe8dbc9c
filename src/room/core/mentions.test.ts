import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseMentions } from './mentions.ts'

/** The names only, as the earlier tests compare them. */
function names(text: string): { handles: readonly string[]; worktrees: readonly string[] } {
  const { handles, worktrees } = parseMentions(text)
  return { handles, worktrees }
}

test('@handle and #worktree outside code are mentions, in order, once each', () => {
  assert.deepEqual(names('@claude-lane-one please sync with #lane-two, then @human. @claude-lane-one'), {
    handles: ['claude-lane-one', 'human'],
    worktrees: ['lane-two'],
  })
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
  assert.deepEqual(names(text), { handles: [], worktrees: [] })
})

test('an email address is not a mention; a trailing full stop is not part of a name', () => {
  assert.deepEqual(names('mail asha@example.com or ask @codex-lane.'), {
    handles: ['codex-lane'],
    worktrees: [],
  })
})

test('an unclosed backtick hides nothing', () => {
  assert.deepEqual(names('a ` stray tick, then @lane'), { handles: ['lane'], worktrees: [] })
})

test('no form a person writes as a mention is dropped: a space after @, @@, full-width sigils, any script', () => {
  const found = parseMentions(
    '@ project-manager inspect #lane-one, cc @@asha, ＠ravi ＃lane-two, @José @_bot',
  )
  assert.deepEqual(found.handles, ['project-manager', 'asha', 'ravi', 'José', '_bot'])
  assert.deepEqual(found.worktrees, ['lane-one', 'lane-two'])
  // How each was written, for a refusal to quote.
  assert.deepEqual(
    [...found.spelled],
    [
      ['@project-manager', '@ project-manager'],
      ['@asha', '@@asha'],
      ['@ravi', '＠ravi'],
      ['#lane-two', '＃lane-two'],
    ],
  )
  assert.deepEqual(names('meet @\tfive'), { handles: ['five'], worktrees: [] })
})

test('what is not a mention stays text: # heading, an email, a package path, a lone @', () => {
  assert.deepEqual(names('# Heading\nnode_modules/@types/node, asha@example.com, email me @\n@\nlane'), {
    handles: [],
    worktrees: [],
  })
})
