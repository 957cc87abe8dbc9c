import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SangamError } from './sangam-error.ts'
import { defaultWindowDays, parseSince } from './time-window.ts'

const now = Date.parse('2026-12-01T12:00:00Z')

test('counts back and dates are read as given', () => {
  assert.equal(parseSince(undefined, now), now - defaultWindowDays * 86_400_000)
  assert.equal(parseSince('12h', now), now - 12 * 3_600_000)
  assert.equal(parseSince('2024-02-29', now), Date.parse('2024-02-29T00:00:00Z'))
  assert.equal(parseSince('2026-04-30T10:00:00+02:00', now), Date.parse('2026-04-30T08:00:00Z'))
})

test('a date that is not on the calendar is refused, not rolled into the next month', () => {
  for (const text of ['2026-02-30', '2026-02-29', '2026-04-31T10:00:00Z', '2026-00-10', '2026-12-00']) {
    assert.throws(() => parseSince(text, now), /--since must be an ISO date/, text)
  }
})

test('a count back further than a date can say is refused', () => {
  assert.throws(() => parseSince('99999999999999999999d', now), SangamError)
})

test('the refusal names the value it was given as, and bounds what it echoes', () => {
  assert.throws(() => parseSince('soon', now, '--until'), /^SangamError: --until must be .*got "soon"$/)
  assert.throws(
    () => parseSince('x'.repeat(100_000), now),
    (error: Error) => error.message.length < 400 && /100,000 characters/.test(error.message),
  )
})
