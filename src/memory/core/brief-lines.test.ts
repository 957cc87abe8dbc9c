import assert from 'node:assert/strict'
import { test } from 'node:test'
import { describeAge } from './brief-lines.ts'

const now = Date.parse('2026-11-29T12:00:00Z')

test('an age says how long ago, and a time ahead of the clock is not "just now"', () => {
  assert.equal(describeAge(now - 30_000, now), 'just now')
  assert.equal(describeAge(now - 60 * 60_000, now), '1 h ago')
  assert.equal(describeAge(now - 3 * 24 * 60 * 60_000, now), '3 d ago')
  assert.equal(describeAge(now + 10_000, now), 'just now')
  assert.equal(describeAge(now + 60 * 60_000, now), '1 h in the future (a clock is off)')
  assert.equal(describeAge(Number.NaN, now), 'at an unknown time')
})
