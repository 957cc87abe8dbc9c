import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type PostChannel, postAuthor } from './post-author.ts'

const none: readonly string[] = []

test('only a person typing is human: a terminal with no agent variables, chat at one, the dashboard', () => {
  const author = (channel: PostChannel, terminal: boolean, agentMarkers = none) =>
    postAuthor({ channel, terminal, agentMarkers })
  assert.equal(author('cli', true), 'human')
  assert.equal(author('chat', true), 'human')
  assert.equal(author('dashboard', false), 'human')
  // Nobody can tell: a script, a pipe.
  assert.equal(author('cli', false), 'unknown')
  assert.equal(author('chat', false), 'unknown')
  // An agent's channel, whatever else holds.
  assert.equal(author('cli', true, ['CLAUDECODE']), 'agent')
  assert.equal(author('chat', true, ['CODEX_THREAD_ID']), 'agent')
  assert.equal(author('mcp', false), 'agent')
  assert.equal(author('mcp', true), 'agent')
  assert.equal(author('sangam', false), 'sangam')
})
