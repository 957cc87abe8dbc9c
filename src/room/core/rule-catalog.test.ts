import assert from 'node:assert/strict'
import { test } from 'node:test'
import { rungs } from '../../options/protocol/rung.ts'
import { findOption } from '../../project/core/option-catalog.ts'
import { parseRuleChange, ruleCatalog, ruleNames, viewRules } from './rule-catalog.ts'

test('every rule starts undecided at its default; lease-collision is the auto-lease option', () => {
  const rules = viewRules({})
  assert.deepEqual(
    rules.map((rule) => [rule.name, rule.rung, rule.default, rule.decided, rule.enforced, rule.option]),
    [
      ['one-actor-per-worktree', 'warn', 'warn', false, false, 'room.one-actor-per-worktree'],
      ['file-overlap', 'warn', 'warn', false, false, 'room.file-overlap'],
      ['stale-worktrees', 'advise', 'advise', false, false, 'room.stale-worktrees'],
      ['lease-collision', 'refuse', 'refuse', false, true, 'leases.auto-lease'],
    ],
  )
  for (const rule of ruleCatalog) {
    for (const rung of rungs) assert.ok(rule.does[rung].length > 0, `${rule.name} ${rung}`)
  }
  for (const rule of rules) assert.ok(findOption(rule.option).ok, rule.option)
})

test('a stored rung is decided, even when it equals the default; enforcement follows the rung', () => {
  const rules = viewRules({
    room: { oneActorPerWorktree: 'refuse', fileOverlap: 'warn', staleWorktrees: 'loud' },
    leases: { autoLease: 'warn', claimTtlMs: 60_000 },
  })
  const byName = new Map(rules.map((rule) => [rule.name, rule]))
  assert.deepEqual(
    [byName.get('one-actor-per-worktree')?.rung, byName.get('one-actor-per-worktree')?.enforced],
    ['refuse', true],
  )
  assert.equal(byName.get('file-overlap')?.decided, true)
  // Not a rung: the group is lenient, so the field reads as unset.
  assert.deepEqual(
    [byName.get('stale-worktrees')?.rung, byName.get('stale-worktrees')?.decided],
    ['advise', false],
  )
  assert.deepEqual(
    [byName.get('lease-collision')?.rung, byName.get('lease-collision')?.enforced],
    ['warn', false],
  )
})

test('stale-worktrees is never enforced: no edit causes it', () => {
  const rules = viewRules({ room: { staleWorktrees: 'refuse' } })
  assert.equal(rules.find((rule) => rule.name === 'stale-worktrees')?.enforced, false)
})

test('an unknown rule or rung is a problem naming the valid ones', () => {
  const noRule = parseRuleChange('one-agent', 'refuse')
  assert.equal(noRule.ok, false)
  assert.match(noRule.ok ? '' : noRule.problem, new RegExp(`the rules are ${ruleNames.join(', ')}`))
  const noRung = parseRuleChange('file-overlap', 'loud')
  assert.match(noRung.ok ? '' : noRung.problem, /one of off, advise, warn, refuse; got "loud"/)
  const fine = parseRuleChange(' file-overlap ', 'refuse ')
  assert.deepEqual(fine.ok ? [fine.rule.name, fine.rung] : null, ['file-overlap', 'refuse'])
})
