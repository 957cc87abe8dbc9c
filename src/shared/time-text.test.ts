import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatIn, formatTime } from './time-text.ts'

test('expiries read in UTC, with the date when it is not today, and as a countdown', () => {
  const now = Date.parse('2026-11-30T10:00:00Z')
  assert.equal(formatTime(Date.parse('2026-11-30T14:05:00Z'), now), '14:05 UTC')
  assert.equal(formatTime(Date.parse('2026-12-01T09:00:00Z'), now), '2026-12-01 09:00 UTC')
  assert.equal(formatIn(now + 23 * 60_000, now), 'in 23 min')
  assert.equal(formatIn(now + 125 * 60_000, now), 'in 2 h 5 min')
  assert.equal(formatIn(now + 30_000, now), 'in 30 s')
  assert.equal(formatIn(now - 1, now), 'now')
  assert.equal(formatIn(now + 2 * 3_600_000 - 100, now), 'in 2 h', 'rounding never shows 60 min')
})
