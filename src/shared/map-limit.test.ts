import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mapLimit } from './map-limit.ts'

test('mapLimit keeps the order of its items and never runs more than the limit at once', async () => {
  let running = 0
  let most = 0
  const results = await mapLimit([5, 1, 4, 2, 3], 2, async (item, index) => {
    running += 1
    most = Math.max(most, running)
    await new Promise((resolve) => setImmediate(resolve))
    running -= 1
    return item * 10 + index
  })
  assert.deepEqual(results, [50, 11, 42, 23, 34])
  assert.equal(most, 2)
  assert.deepEqual(await mapLimit([], 4, async () => 1), [])
})
