import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pushIntervalMs, reconnectCeilingMs, reconnectDelayMs, reconnectFloorMs } from './sync-backoff.ts'

test('the reconnect wait grows with failures and never leaves the floor and ceiling', () => {
  assert.equal(reconnectDelayMs(0, 0), reconnectFloorMs)
  assert.equal(reconnectDelayMs(0, 0.999), reconnectFloorMs)
  assert.ok(reconnectDelayMs(3, 0.999) > reconnectDelayMs(1, 0.999))
  for (const failures of [0, 5, 20, 1000]) {
    for (const random of [0, 0.5, 0.999]) {
      const delay = reconnectDelayMs(failures, random)
      assert.ok(delay >= reconnectFloorMs && delay <= reconnectCeilingMs, `${failures}/${random}: ${delay}`)
    }
  }
})

test('pushes are paced to the server rate limit', () => {
  assert.equal(pushIntervalMs(20), 50)
  assert.equal(pushIntervalMs(3), 334)
  assert.equal(pushIntervalMs(0), 1000)
})
