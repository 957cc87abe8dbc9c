import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DirectoryAgent, RoomDirectory } from './directory.ts'
import { resolveRecipients } from './recipients.ts'

function agent(handle: string, sessionId: string, state: DirectoryAgent['state'] = 'online'): DirectoryAgent {
  return {
    handle,
    vendor: 'claude',
    sessionId,
    human: 'ana',
    state,
    worktree: `/w/${handle}`,
    branch: 'main',
    machine: 'm1',
    updatedAt: 0,
  }
}

const directory: RoomDirectory = {
  agents: [agent('claude-lane-one', 's1'), agent('claude-lane-two', 's2'), agent('api', 's3')],
  worktrees: [
    { target: 'api', path: '/w/api', machine: 'm1', branch: 'main' },
    { target: 'web', path: '/w/web', machine: 'm1', branch: 'web' },
  ],
  humans: ['ana'],
  people: [{ handle: 'ana', name: 'ana', state: 'online', machines: ['m1'] }],
}

test('handles, @human and worktree targets resolve to tokens, deduplicated, in order', () => {
  assert.deepEqual(
    resolveRecipients(directory, ['@claude-lane-one', '#web', '@human', '@Claude-Lane-One', 'human']),
    ['@claude-lane-one', '#web', '@human'],
  )
})

test("@all and @everyone are the whole room, as every session's context reads them", () => {
  assert.deepEqual(resolveRecipients(directory, ['@all', '@Everyone', 'all']), ['@all', '@everyone'])
})

test('an unknown recipient fails closed naming close matches', () => {
  assert.throws(() => resolveRecipients(directory, ['@claude-lane-on']), {
    code: 'INVALID_INPUT',
    message: /nobody in the room is called "@claude-lane-on": did you mean @claude-lane-one/,
  })
  assert.throws(() => resolveRecipients(directory, ['@claude']), {
    message: /@claude-lane-one, @claude-lane-two/,
  })
  assert.throws(() => resolveRecipients(directory, ['#zzzzzzzz']), { message: /sangam targets lists/ })
})

test('a bare name that is both a handle and a worktree is ambiguous, naming both', () => {
  assert.throws(() => resolveRecipients(directory, ['api']), {
    code: 'INVALID_INPUT',
    message: /"api" is ambiguous: it could be @api \(claude session s3 on m1\), or #api \(\/w\/api on m1\)/,
  })
  assert.deepEqual(resolveRecipients(directory, ['@api', '#api']), ['@api', '#api'])
})

test('one handle held by two sessions is ambiguous', () => {
  const twice: RoomDirectory = { ...directory, agents: [agent('dup', 'a'), agent('dup', 'b')] }
  assert.throws(() => resolveRecipients(twice, ['@dup']), { message: /ambiguous.*session a.*session b/ })
})
