import assert from 'node:assert/strict'
import { test } from 'node:test'
import { autoLeaseRungSchema } from '../../leases/protocol/lease.ts'
import { readStored } from '../../options/core/option-group.ts'
import { rungType } from '../../options/core/option-type.ts'
import { rungs } from '../../options/protocol/rung.ts'
import { catalogOptions, findOption, optionGroups } from './option-catalog.ts'

test('every option has a unique full name, a kebab-case name, and a default its own type takes', () => {
  const all = catalogOptions()
  assert.equal(new Set(all.map((entry) => entry.fullName)).size, all.length)
  assert.equal(new Set(optionGroups.map((group) => group.key)).size, optionGroups.length)
  for (const { fullName, option } of all) {
    assert.match(option.name, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, fullName)
    assert.ok(
      option.type.check(option.default).ok,
      `${fullName}: its default ${JSON.stringify(option.default)}`,
    )
    assert.ok(option.description.length > 0, fullName)
  }
  assert.ok(all.some((entry) => entry.fullName === 'leases.auto-lease'))
})

test('the rungs are defined once: the wire schema and the option type take the same four', () => {
  assert.deepEqual(autoLeaseRungSchema.options, [...rungs])
  assert.equal(rungType.describe, 'off | advise | warn | refuse')
})

test('an unknown option is refused, naming the options there are', () => {
  const missing = findOption('leases.autolease')
  assert.equal(missing.ok, false)
  assert.match(
    missing.ok ? '' : missing.problem,
    /there is no project option "leases\.autolease"; did you mean leases\.auto-lease or leases\.auto-lease-ttl\? The options are leases\.auto-lease, .*sync\.share-tool-output/,
  )
})

test('a value of the wrong type, or an unknown rung, is refused with what the option takes', () => {
  const found = findOption('leases.auto-lease')
  assert.ok(found.ok)
  assert.deepEqual(found.found.option.type.fromText('loud'), {
    ok: false,
    problem: 'is one of off, advise, warn, refuse',
  })
  assert.deepEqual(found.found.option.type.fromText(' warn '), { ok: true, value: 'warn' })
  const ttl = findOption('leases.claim-ttl')
  assert.ok(ttl.ok)
  assert.deepEqual(ttl.found.option.type.fromText('90m'), { ok: true, value: 90 * 60_000 })
  assert.equal(ttl.found.option.type.fromText('soon').ok, false)
  const share = findOption('sync.share-tool-output')
  assert.ok(share.ok)
  assert.deepEqual(share.found.option.type.fromText('yes'), { ok: false, problem: 'is not true or false' })
  assert.deepEqual(share.found.option.type.fromText('TRUE'), { ok: true, value: true })
})

test('a stored group: unknown fields are dropped; a bad field is unreadable, or its default where that is safe', () => {
  const [leases, sync] = optionGroups
  assert.ok(leases !== undefined && sync !== undefined)
  assert.deepEqual(readStored(leases, { claimTtlMs: 60_000, later: 'newer sangam' }), {
    ok: true,
    value: { claimTtlMs: 60_000 },
  })
  assert.deepEqual(readStored(leases, { autoLease: 'REFUSE' }), {
    ok: false,
    problem: 'autoLease is one of off, advise, warn, refuse',
  })
  assert.deepEqual(readStored(leases, []), { ok: false, problem: 'not an object' })
  assert.deepEqual(readStored(sync, { shareToolOutput: 'yes' }), { ok: true, value: {} })
  assert.deepEqual(readStored(sync, 'garbage'), { ok: true, value: {} })
})
