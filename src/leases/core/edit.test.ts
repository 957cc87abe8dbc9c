import assert from 'node:assert/strict'
import { test } from 'node:test'
import picomatch from 'picomatch'
import { claude, codex, sampleLease } from '../../../test/helpers/sample-lease.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { Lease, LeaseSettings } from '../protocol/lease.ts'
import { decideEdit, type PathMatcher } from './edit.ts'
import { defaultLeaseSettings } from './settings.ts'

const now = Date.parse('2026-11-30T10:00:00Z')
const minute = 60_000
const matches: PathMatcher = (pattern, path) =>
  picomatch(pattern.toLowerCase(), { dot: true })(path.toLowerCase())
const alice: Actor = { human: 'alice@x.dev', vendor: null, sessionId: null }
const bob: Actor = { human: 'bob@x.dev', vendor: 'claude', sessionId: 'b-1' }

function lease(holder: Actor, pattern: string, extra: Partial<Lease> = {}): Lease {
  return sampleLease(holder, pattern, now, {
    reason: 'refactor auth',
    token: 3,
    expiresAt: now + 30 * minute,
    ...extra,
  })
}

function settings(extra: Partial<LeaseSettings> = {}): LeaseSettings {
  return { ...defaultLeaseSettings, ...extra }
}

test('an edit of a file nobody holds is allowed and takes a short auto-lease on exactly that file', () => {
  const outcome = decideEdit([], codex, ['src/a[1].ts'], now, settings(), matches)
  assert.equal(outcome.decision, 'allow')
  assert.deepEqual(outcome.autoLease, { pattern: 'src/a[[]1[]].ts', ttlMs: 10 * minute })
})

test("another actor's claim denies the edit, naming holder, reason and expiry, whatever the rung", () => {
  for (const rung of ['off', 'advise', 'warn', 'refuse'] as const) {
    const outcome = decideEdit(
      [lease(bob, 'src/**')],
      codex,
      ['src/auth/login.ts'],
      now,
      settings({ autoLease: rung }),
      matches,
    )
    assert.equal(outcome.decision, 'deny', rung)
    assert.match(
      outcome.reason,
      /src\/auth\/login\.ts is leased to bob@x\.dev's claude session b-1 until 10:30 UTC \(in 30 min\): "refactor auth"/,
    )
    assert.equal(outcome.autoLease, null)
  }
})

test('a file lease is found through any spelling of the path, in any case', () => {
  const held = [lease(bob, 'src/real.ts')]
  assert.equal(decideEdit(held, codex, ['SRC/Real.TS'], now, settings(), matches).decision, 'deny')
  assert.equal(
    decideEdit(held, codex, ['src/link.ts', 'src/real.ts'], now, settings(), matches).decision,
    'deny',
  )
})

test("another session's auto-lease is refused, warned, advised or ignored by the rung", () => {
  const auto = lease(claude, 'src/a.ts', { kind: 'auto', reason: 'editing' })
  const refuse = decideEdit([auto], codex, ['src/a.ts'], now, settings({ autoLease: 'refuse' }), matches)
  assert.equal(refuse.decision, 'deny')
  assert.match(refuse.reason, /being edited by alice@x\.dev's claude session c-1/)

  const warn = decideEdit([auto], codex, ['src/a.ts'], now, settings({ autoLease: 'warn' }), matches)
  assert.deepEqual(
    [warn.decision, warn.warnings.length, warn.collisions, warn.autoLease],
    ['allow', 1, [auto], null],
  )

  const advise = decideEdit([auto], codex, ['src/a.ts'], now, settings({ autoLease: 'advise' }), matches)
  assert.deepEqual(
    [advise.decision, advise.warnings.length, advise.collisions, advise.autoLease],
    ['allow', 1, [], null],
  )

  const off = decideEdit([auto], codex, ['src/a.ts'], now, settings({ autoLease: 'off' }), matches)
  assert.deepEqual([off.decision, off.warnings, off.autoLease], ['allow', [], null])
})

test("the editor's own leases never stand in its way; its own claim makes an auto-lease unnecessary", () => {
  const own = decideEdit([lease(codex, 'src/**')], codex, ['src/a.ts'], now, settings(), matches)
  assert.deepEqual([own.decision, own.autoLease], ['allow', null])
  const ownAuto = decideEdit(
    [lease(codex, 'src/a.ts', { kind: 'auto' })],
    codex,
    ['src/a.ts'],
    now,
    settings(),
    matches,
  )
  assert.equal(ownAuto.autoLease?.pattern, 'src/a.ts', 'an edit renews its auto-lease')
})

test("a human's claim lets that human's sessions edit, and they take auto-leases against each other", () => {
  const outcome = decideEdit([lease(alice, 'src/**')], codex, ['src/a.ts'], now, settings(), matches)
  assert.deepEqual([outcome.decision, outcome.autoLease?.pattern], ['allow', 'src/a.ts'])
})

test('a file outside the project is never leased and never denied', () => {
  const outcome = decideEdit([lease(bob, '**')], codex, [], now, settings(), matches)
  assert.deepEqual([outcome.decision, outcome.path, outcome.autoLease], ['allow', null, null])
})

test('an expired lease denies nothing', () => {
  const outcome = decideEdit(
    [lease(bob, 'src/**', { expiresAt: now })],
    codex,
    ['src/a.ts'],
    now,
    settings(),
    matches,
  )
  assert.equal(outcome.decision, 'allow')
})
