import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readEnvironment } from '../../config/environment.ts'
import { resolveActor } from './actor.ts'

const human = 'alice@x.dev'

test('a Claude Code or Codex session id in the environment makes the caller that session', () => {
  assert.deepEqual(resolveActor(readEnvironment({ CLAUDE_CODE_SESSION_ID: 'c-1' }), human), {
    human,
    vendor: 'claude',
    sessionId: 'c-1',
  })
  assert.deepEqual(resolveActor(readEnvironment({ CODEX_THREAD_ID: 'x-1' }), human), {
    human,
    vendor: 'codex',
    sessionId: 'x-1',
  })
})

test('an MCP client that names no session still gives its vendor; nothing at all means the human', () => {
  const bare = readEnvironment({})
  assert.deepEqual(resolveActor(bare, human, 'codex-mcp-client'), { human, vendor: 'codex', sessionId: null })
  assert.deepEqual(resolveActor(bare, human, 'claude-code'), { human, vendor: 'claude', sessionId: null })
  assert.deepEqual(resolveActor(bare, human, 'some-editor'), { human, vendor: null, sessionId: null })
  assert.deepEqual(resolveActor(bare, human), { human, vendor: null, sessionId: null })
})

test('a session id beats the MCP client name', () => {
  const env = readEnvironment({ CLAUDE_CODE_SESSION_ID: 'c-1' })
  assert.deepEqual(resolveActor(env, human, 'codex-mcp-client').sessionId, 'c-1')
})
