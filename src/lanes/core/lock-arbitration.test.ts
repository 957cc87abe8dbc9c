import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decideAcquire, decideTakeover, isLockStale } from './lock-arbitration.ts'

const alice = { lane: 'a', owner: 'alice@example.com', machine: 'm-alice', task: null }
const bob = { lane: 'b', owner: 'bob@example.com', machine: 'm-bob' }

test('a free lock is granted with the next fencing token; a held one is refused with its holder, even to itself', () => {
  const first = decideAcquire(null, alice, 1000, 6)
  assert.ok(first.granted)
  assert.equal(first.holder.token, 7)
  assert.equal(first.holder.since, 1000)
  const again = decideAcquire(first.holder, alice, 2000, 7)
  assert.deepEqual(again, { granted: false, holder: first.holder })
  const other = decideAcquire(first.holder, { ...bob, task: null }, 2000, 7)
  assert.deepEqual(other, { granted: false, holder: first.holder })
})

test('a takeover ends a stale tenure with a new token and names it; a live holder is kept', () => {
  const held = { ...alice, since: 0, heartbeatAt: 10_000, token: 3 }
  const live = decideTakeover(held, { ...bob, reason: 'alice is away', staleAfterMs: 60_000 }, 69_999, 3)
  assert.deepEqual(live, { taken: false, holder: held })
  const stale = decideTakeover(held, { ...bob, reason: 'alice is away', staleAfterMs: 60_000 }, 70_000, 3)
  assert.ok(stale.taken)
  assert.deepEqual(stale.previous, held)
  assert.equal(stale.holder.token, 4)
  assert.equal(stale.holder.lane, 'b')
  assert.equal(stale.holder.task, null)
  const free = decideTakeover(null, { ...bob, reason: 'nobody holds it', staleAfterMs: 60_000 }, 5, 4)
  assert.ok(free.taken)
  assert.equal(free.previous, null)
  assert.equal(isLockStale(held, 69_999, 60_000), false)
})
