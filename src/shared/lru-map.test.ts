import assert from 'node:assert/strict'
import { test } from 'node:test'
import { LruMap } from './lru-map.ts'

test('an LruMap never holds more than its capacity, and forgets the least recently used first', () => {
  const memo = new LruMap<string, number>(3)
  for (let i = 0; i < 1000; i++) {
    memo.set(`k${i}`, i)
    assert.ok(memo.size <= 3)
  }
  assert.equal(memo.size, 3)
  assert.equal(memo.get('k996'), undefined)
  assert.equal(memo.get('k997'), 997)

  // k997 was just read, so k998 is now the least recently used and goes first.
  memo.set('new', -1)
  assert.equal(memo.get('k998'), undefined)
  assert.equal(memo.get('k997'), 997)
  assert.equal(memo.get('k999'), 999)
  assert.equal(memo.get('new'), -1)

  // Setting a key it holds replaces the value without growing.
  memo.set('new', -2)
  assert.equal(memo.size, 3)
  assert.equal(memo.get('new'), -2)
})

test('an LruMap of no room is refused', () => {
  assert.throws(() => new LruMap(0), RangeError)
})
