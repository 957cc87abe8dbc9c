import assert from 'node:assert/strict'
import { test } from 'node:test'
import { reconnectCeilingMs, reconnectDelayMs, reconnectFloorMs, takePush } from './backoff.ts'

test('the reconnect wait grows with failures and never leaves the floor and ceiling', () => {
  assert.equal(reconnectDelayMs(0, 0), reconnectFloorMs)
  assert.ok(reconnectDelayMs(3, 0.999) > reconnectDelayMs(1, 0.999))
  for (const failures of [0, 5, 20, 1000]) {
    for (const random of [0, 0.5, 0.999]) {
      const delay = reconnectDelayMs(failures, random)
      assert.ok(delay >= reconnectFloorMs && delay <= reconnectCeilingMs, `${failures}/${random}: ${delay}`)
    }
  }
})

test('the first wait is already spread: clients dropped together do not come back together', () => {
  const first = [0, 0.25, 0.5, 0.75, 0.999].map((random) => reconnectDelayMs(0, random))
  assert.equal(new Set(first).size, first.length, `${first.join(', ')}`)
  assert.ok(Math.max(...first) <= 2 * reconnectFloorMs, 'and still short: back within half a second')
})

test('however long the server was away, the next attempt is at most 5 s off, and jittered', () => {
  for (const failures of [6, 10, 50, 10_000]) {
    assert.ok(reconnectDelayMs(failures, 0.999) <= 5_000, `${failures} failures`)
    assert.ok(reconnectDelayMs(failures, 0) < reconnectDelayMs(failures, 0.5), 'spread, not one wave')
  }
})

test('a burst of pushes goes at once, up to one second of the rate; then they are paced', () => {
  let state = null as Parameters<typeof takePush>[0]
  const waits: number[] = []
  for (let i = 0; i < 22; i++) {
    const taken = takePush(state, 1000, 20)
    waits.push(taken.waitMs)
    state = taken.next
  }
  assert.deepEqual(waits.slice(0, 20), Array(20).fill(0))
  assert.deepEqual(waits.slice(20), [50, 100])
})

test('the budget refills with time, never above one second of pushes', () => {
  const spent = { tokens: 0, at: 0 }
  assert.equal(takePush(spent, 50, 20).waitMs, 0, 'one push back after 50 ms')
  assert.equal(takePush(spent, 10, 20).waitMs, 40)
  assert.equal(takePush(spent, 60_000, 20).next.tokens, 19, 'capped at the rate')
})
