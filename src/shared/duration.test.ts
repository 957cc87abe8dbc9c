import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatDuration } from './duration.ts'

test('durations read as a person would say them', () => {
  assert.equal(formatDuration(10 * 60_000), '10 min')
  assert.equal(formatDuration(90 * 60_000), '1 h 30 min')
  assert.equal(formatDuration(2 * 86_400_000), '2 d')
})
