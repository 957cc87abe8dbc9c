import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isLockStale, type LaneFacts, nextSyncStep } from './sync-ladder.ts'

const base: LaneFacts = {
  head: 'h',
  main: 'm',
  dirty: false,
  mainInHead: false,
  headInMain: false,
  emptyChange: false,
  lockLane: null,
  activeTask: null,
}

test('an active task can only be published, whatever else holds', () => {
  assert.deepEqual(nextSyncStep('a', { ...base, activeTask: 't1', dirty: true, lockLane: 'b' }), {
    kind: 'publish-task',
    task: 't1',
  })
})

test('a clean lane on main is already synced, even while another lane holds the lock', () => {
  assert.deepEqual(
    nextSyncStep('a', { ...base, head: 'm', mainInHead: true, headInMain: true, lockLane: 'b' }),
    {
      kind: 'already-synced',
    },
  )
})

test('a clean lane behind main catches up without the lock', () => {
  assert.deepEqual(nextSyncStep('a', { ...base, headInMain: true, lockLane: 'b' }), {
    kind: 'catch-up',
    reset: false,
  })
})

test('a clean lane whose commits change nothing has no changes, or is reset to a moved main', () => {
  assert.deepEqual(nextSyncStep('a', { ...base, emptyChange: true, mainInHead: true }), {
    kind: 'no-changes',
  })
  assert.deepEqual(nextSyncStep('a', { ...base, emptyChange: true }), { kind: 'catch-up', reset: true })
})

test('work to publish is refused while another lane holds the lock', () => {
  assert.deepEqual(nextSyncStep('a', { ...base, dirty: true, mainInHead: true, lockLane: 'b' }), {
    kind: 'busy',
    holder: 'b',
  })
})

test('work on the latest main publishes directly; work beside a moved main merges', () => {
  assert.deepEqual(nextSyncStep('a', { ...base, dirty: true, mainInHead: true }), { kind: 'publish-direct' })
  assert.deepEqual(
    nextSyncStep('a', { ...base, head: 'm', mainInHead: true, headInMain: true, dirty: true }),
    {
      kind: 'publish-direct',
    },
  )
  assert.deepEqual(nextSyncStep('a', { ...base, dirty: true }), { kind: 'merge' })
  assert.deepEqual(nextSyncStep('a', { ...base, dirty: false }), { kind: 'merge' })
  assert.deepEqual(nextSyncStep('a', { ...base, dirty: true, lockLane: 'a' }), { kind: 'merge' })
})

test('a lock is stale once its holder has been silent for the lease', () => {
  assert.equal(isLockStale(1000, 1000 + 59_999, 60_000), false)
  assert.equal(isLockStale(1000, 1000 + 60_000, 60_000), true)
})
