import assert from 'node:assert/strict'
import { test } from 'node:test'
import { recordTypeNames } from '../protocol/record.ts'
import { recordAppliers } from './record-appliers.ts'

test('every record type has exactly one applier, registered under its own type', () => {
  assert.deepEqual(Object.keys(recordAppliers).sort(), [...recordTypeNames].sort())
  for (const [type, applier] of Object.entries(recordAppliers)) assert.equal(applier.type, type)
})
