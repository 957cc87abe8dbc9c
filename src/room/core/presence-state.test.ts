import assert from 'node:assert/strict'
import { test } from 'node:test'
import { presenceState } from './presence-state.ts'

const none = { blocked: new Set<string>(), liveClaudeSessions: null }

test('stored states show as stored; offline stays offline even when blocked', () => {
  assert.equal(presenceState({ vendor: 'codex', sessionId: 's', stored: 'online' }, none), 'online')
  assert.equal(presenceState({ vendor: 'codex', sessionId: 's', stored: 'idle' }, none), 'idle')
  const blocked = { ...none, blocked: new Set(['codex:s']) }
  assert.equal(presenceState({ vendor: 'codex', sessionId: 's', stored: 'idle' }, blocked), 'blocked')
  assert.equal(presenceState({ vendor: 'codex', sessionId: 's', stored: 'offline' }, blocked), 'offline')
})

test('an idle Claude session Claude no longer lists is offline; without the list it stays idle', () => {
  const live = { ...none, liveClaudeSessions: new Set(['alive']) }
  assert.equal(presenceState({ vendor: 'claude', sessionId: 'gone', stored: 'idle' }, live), 'offline')
  assert.equal(presenceState({ vendor: 'claude', sessionId: 'alive', stored: 'idle' }, live), 'idle')
  assert.equal(presenceState({ vendor: 'claude', sessionId: 'gone', stored: 'online' }, live), 'online')
  assert.equal(presenceState({ vendor: 'claude', sessionId: 'gone', stored: 'idle' }, none), 'idle')
})
