import assert from 'node:assert/strict'
import { test } from 'node:test'
import { machineLabels } from './machine-labels.ts'
import { machineNameFromHostname, machineNameProblem } from './machine-name.ts'

test('a machine is labelled by its name; two machines of one name keep apart by their ids', () => {
  const labels = machineLabels([
    { id: 'm_3e9f64283eee9700', name: 'devbox' },
    { id: 'm_a1b2c3d4e5f60718', name: 'devbox' },
    { id: 'm_0000000000000001', name: 'bob-laptop' },
  ])
  assert.deepEqual(Object.fromEntries(labels), {
    m_3e9f64283eee9700: 'devbox~3e9f',
    m_a1b2c3d4e5f60718: 'devbox~a1b2',
    m_0000000000000001: 'bob-laptop',
  })
  // The same set in another order: the same labels (every replica agrees).
  const again = machineLabels([
    { id: 'm_0000000000000001', name: 'bob-laptop' },
    { id: 'm_a1b2c3d4e5f60718', name: 'devbox' },
    { id: 'm_3e9f64283eee9700', name: 'devbox' },
  ])
  assert.deepEqual(Object.fromEntries(again), Object.fromEntries(labels))
})

test("a hostname's first label is the default name; what a name may not hold is refused with the rule", () => {
  assert.equal(machineNameFromHostname('alice-laptop.local'), 'alice-laptop')
  assert.equal(machineNameFromHostname("Bob's MacBook Pro.lan"), 'Bob-s-MacBook-Pro')
  assert.equal(machineNameFromHostname('---'), 'machine')
  assert.equal(machineNameFromHostname(''), 'machine')
  assert.equal(machineNameFromHostname('x'.repeat(80)).length, 40)
  assert.equal(machineNameProblem('bob-box'), null)
  assert.equal(machineNameProblem('ci.runner_2'), null)
  for (const bad of ['', '-lead', 'two words', 'x'.repeat(41), 'tab\there', 'esc\u001b[31m', 'm~1'])
    assert.match(
      machineNameProblem(bad) ?? '',
      /is not a machine name: use 1–40 letters/,
      JSON.stringify(bad),
    )
})
