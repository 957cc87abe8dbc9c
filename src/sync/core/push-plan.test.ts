import assert from 'node:assert/strict'
import { test } from 'node:test'
import { messageSettleMs, type PushCandidate, planPush } from './push-plan.ts'

const now = 1_800_000_000_000
const budget = { maxRecords: 3, maxBytes: 1000 }

function candidate(seq: number, fields: Partial<PushCandidate> = {}): PushCandidate {
  return { seq, bytes: 100, joinable: false, closed: false, at: now - 60_000, ...fields }
}

test('takes candidates in order up to the record limit', () => {
  const plan = planPush(
    [1, 2, 3, 4, 5].map((seq) => candidate(seq)),
    now,
    budget,
  )
  assert.deepEqual(plan, { take: 3, recheckAt: null })
})

test('stops before the candidate that would pass the byte budget, but always sends one', () => {
  assert.equal(planPush([candidate(1, { bytes: 600 }), candidate(2, { bytes: 600 })], now, budget).take, 1)
  assert.equal(planPush([candidate(1, { bytes: 5000 }), candidate(2)], now, budget).take, 1)
})

test('an assistant message still being written holds back everything after it', () => {
  const growing = candidate(2, { joinable: true, at: now - 1000 })
  const plan = planPush([candidate(1), growing, candidate(3)], now, budget)
  assert.deepEqual(plan, { take: 1, recheckAt: now - 1000 + messageSettleMs })
})

test('a message closed by a later turn, or quiet for the settle time, goes at once', () => {
  const closed = candidate(1, { joinable: true, closed: true, at: now })
  const quiet = candidate(2, { joinable: true, at: now - messageSettleMs })
  assert.deepEqual(planPush([closed, quiet], now, budget), { take: 2, recheckAt: null })
})

test('an empty outbox plans nothing', () => {
  assert.deepEqual(planPush([], now, budget), { take: 0, recheckAt: null })
})
