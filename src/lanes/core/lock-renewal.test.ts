import assert from 'node:assert/strict'
import { test } from 'node:test'
import { shouldRenewLock } from './lock-renewal.ts'

const stale = 30 * 60_000
const now = 100 * 60_000
const quiet = { heartbeatAt: now - 20 * 60_000 }

test('a working lane with a live agent, or a recently changed worktree, gets its heartbeat renewed', () => {
  assert.equal(shouldRenewLock(quiet, { working: true, agentAlive: true, changedAt: null }, now, stale), true)
  const edited = { working: true, agentAlive: false, changedAt: now - 29 * 60_000 }
  assert.equal(shouldRenewLock(quiet, edited, now, stale), true)
})

test('no renewal for an idle lane, a silent one, another machine, or a heartbeat still fresh', () => {
  const alive = { working: true, agentAlive: true, changedAt: now }
  assert.equal(shouldRenewLock(quiet, { ...alive, working: false }, now, stale), false)
  assert.equal(
    shouldRenewLock(quiet, { working: true, agentAlive: false, changedAt: now - stale }, now, stale),
    false,
  )
  assert.equal(
    shouldRenewLock(quiet, { working: true, agentAlive: false, changedAt: null }, now, stale),
    false,
  )
  assert.equal(shouldRenewLock({ ...quiet, elsewhere: true }, alive, now, stale), false)
  assert.equal(shouldRenewLock({ heartbeatAt: now - 9 * 60_000 }, alive, now, stale), false)
})
