import assert from 'node:assert/strict'
import { test } from 'node:test'
import { closeNames } from './close-names.ts'

test('close names: a prefix, a part, or a few edits away; closest first; none for the far', () => {
  const rules = ['one-actor-per-worktree', 'file-overlap', 'stale-worktrees', 'lease-collision']
  assert.deepEqual(closeNames('file-overlaps', rules), ['file-overlap'])
  assert.deepEqual(closeNames('overlap', rules), ['file-overlap'])
  assert.deepEqual(closeNames('Lease-Colision', rules), ['lease-collision'])
  assert.deepEqual(closeNames('xyz', rules), [])
  assert.deepEqual(closeNames('  ', rules), [])
  const options = ['room.stale-days', 'room.stale-worktrees', 'leases.claim-ttl']
  const forms = (name: string) => [name, name.slice(name.indexOf('.') + 1)]
  assert.deepEqual(closeNames('stale-days', options, { forms }), ['room.stale-days'])
  assert.deepEqual(closeNames('room.stale', options, { forms }), ['room.stale-days', 'room.stale-worktrees'])
  assert.deepEqual(closeNames('claud', ['claude', 'codex']), ['claude'])
})
