import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parsePrePushInput } from './pre-push-input.ts'

const a = 'a'.repeat(40)
const b = 'b'.repeat(40)
const zero = '0'.repeat(40)

test('an update, a new branch and a deletion are told apart', () => {
  const input = [
    `refs/heads/main ${a} refs/heads/main ${b}`,
    `refs/heads/topic ${a} refs/heads/topic ${zero}`,
    `(delete) ${zero} refs/heads/old ${b}`,
    '',
  ].join('\n')
  const { updates, malformed } = parsePrePushInput(input)
  assert.deepEqual(malformed, [])
  assert.deepEqual(
    updates.map((update) => [update.kind, update.remoteRef, update.remoteSha]),
    [
      ['update', 'refs/heads/main', b],
      ['create', 'refs/heads/topic', null],
      ['delete', 'refs/heads/old', b],
    ],
  )
})

test('empty stdin means nothing to update', () => {
  assert.deepEqual(parsePrePushInput(''), { updates: [], malformed: [] })
  assert.deepEqual(parsePrePushInput('\n'), { updates: [], malformed: [] })
})

test('SHA-256 object names are accepted', () => {
  const long = 'c'.repeat(64)
  const { updates } = parsePrePushInput(`refs/heads/main ${long} refs/heads/main ${'0'.repeat(64)}\n`)
  assert.equal(updates[0]?.kind, 'create')
})

test('lines without the documented shape are reported, not guessed at', () => {
  const { updates, malformed } = parsePrePushInput(`refs/heads/main ${a}\nnot a line at all\n`)
  assert.deepEqual(updates, [])
  assert.equal(malformed.length, 2)
})
