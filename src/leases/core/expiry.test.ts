import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isSangamError } from '../../shared/sangam-error.ts'
import { parseTtl } from './expiry.ts'

test('TTLs read as durations: 45s, 30m, 2h, 1h30m, 1d', () => {
  assert.equal(parseTtl('45s'), 45_000)
  assert.equal(parseTtl('30m'), 30 * 60_000)
  assert.equal(parseTtl('2H'), 2 * 3_600_000)
  assert.equal(parseTtl('1h30m'), 90 * 60_000)
  assert.equal(parseTtl('1d'), 86_400_000)
})

test('a TTL that is not a duration, or outside 10 s to 7 days, is refused', () => {
  for (const text of ['', '2', 'h', '2 hours', '1h-5m', '5s', '8d', '-1h', '1.5h']) {
    assert.throws(
      () => parseTtl(text),
      (error: unknown) => isSangamError(error) && error.code === 'INVALID_INPUT',
      JSON.stringify(text),
    )
  }
})
