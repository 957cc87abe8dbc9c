import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { planApply } from './apply-plan.ts'

const records = (...gseqs: number[]) => gseqs.map((gseq) => ({ gseq }))

test('records continuing the cursor are applied in order', () => {
  assert.deepEqual(planApply(4, records(5, 6, 7)), { apply: records(5, 6, 7), stale: 0, gapAfter: null })
})

test('records at or below the cursor are counted stale and skipped', () => {
  assert.deepEqual(planApply(6, records(5, 6, 7)), { apply: records(7), stale: 2, gapAfter: null })
})

test('a hole stops the apply at the last record before it', () => {
  assert.deepEqual(planApply(4, records(5, 7, 8)), { apply: records(5), stale: 0, gapAfter: 5 })
  assert.deepEqual(planApply(4, records(9)), { apply: [], stale: 0, gapAfter: 4 })
})

test('property: whatever arrives, what is applied continues the cursor with no hole or repeat', () => {
  fc.assert(
    fc.property(fc.nat(50), fc.array(fc.integer({ min: 1, max: 80 }), { maxLength: 40 }), (cursor, gseqs) => {
      const sorted = [...gseqs].sort((a, b) => a - b).map((gseq) => ({ gseq }))
      const plan = planApply(cursor, sorted)
      assert.deepEqual(
        plan.apply.map((record) => record.gseq),
        plan.apply.map((_, index) => cursor + 1 + index),
      )
      if (plan.gapAfter !== null) assert.equal(plan.gapAfter, cursor + plan.apply.length)
    }),
  )
})
