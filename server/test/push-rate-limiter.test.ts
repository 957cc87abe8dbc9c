import assert from 'node:assert/strict'
import { test } from 'node:test'
import { PushRateLimiter, takeToken } from '../src/push-rate-limiter.ts'

test('a fresh client may burst up to one second of its rate, then waits', () => {
  let bucket: Parameters<typeof takeToken>[0]
  for (let push = 0; push < 5; push++) {
    const taken = takeToken(bucket, 1_000, 5)
    assert.equal(taken.allowed, true, `push ${push}`)
    bucket = taken.bucket
  }
  const refused = takeToken(bucket, 1_000, 5)
  assert.equal(refused.allowed, false)
  assert.ok(!refused.allowed && refused.retryAfterMs === 200, 'one token comes back every 200 ms at 5/s')
})

test('tokens come back with time, never beyond one second of rate', () => {
  const limiter = new PushRateLimiter(2)
  assert.equal(limiter.take('a', 0).allowed, true)
  assert.equal(limiter.take('a', 0).allowed, true)
  assert.equal(limiter.take('a', 0).allowed, false)
  assert.equal(limiter.take('a', 499).allowed, false)
  assert.equal(limiter.take('a', 500).allowed, true)
  // An hour idle refills to the burst of 2, not to 7,200.
  assert.equal(limiter.take('a', 3_600_000).allowed, true)
  assert.equal(limiter.take('a', 3_600_000).allowed, true)
  assert.equal(limiter.take('a', 3_600_000).allowed, false)
})

test('clients are limited separately, and a forgotten connection starts afresh', () => {
  const limiter = new PushRateLimiter(1)
  assert.equal(limiter.take('one', 0).allowed, true)
  assert.equal(limiter.take('one', 0).allowed, false)
  assert.equal(limiter.take('two', 0).allowed, true)
  limiter.forget('one')
  assert.equal(limiter.take('one', 0).allowed, true)
})

test('a clock that steps back never mints tokens', () => {
  const limiter = new PushRateLimiter(1)
  assert.equal(limiter.take('a', 10_000).allowed, true)
  assert.equal(limiter.take('a', 5_000).allowed, false)
})
