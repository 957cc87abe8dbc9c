import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sampleLease } from '../../../test/helpers/sample-lease.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { ClaimRequest, Lease } from '../protocol/lease.ts'
import { leaseCovers } from './actor.ts'
import { arbitrateClaim, planRelease, sessionLeases } from './arbitration.ts'

const now = Date.parse('2026-11-30T10:00:00Z')
const hour = 3_600_000
const alice: Actor = { human: 'alice@x.dev', vendor: null, sessionId: null }
const aliceClaude: Actor = { human: 'alice@x.dev', vendor: 'claude', sessionId: 'c-1' }
const aliceCodex: Actor = { human: 'alice@x.dev', vendor: 'codex', sessionId: 'x-1' }
const aliceSomeCodex: Actor = { human: 'alice@x.dev', vendor: 'codex', sessionId: null }
const bob: Actor = { human: 'bob@x.dev', vendor: null, sessionId: null }

function lease(holder: Actor, pattern: string, extra: Partial<Lease> = {}): Lease {
  return sampleLease(holder, pattern, now - hour, { expiresAt: now + hour, ...extra })
}

function claim(actor: Actor, patterns: string[], extra: Partial<ClaimRequest> = {}): ClaimRequest {
  return { actor, patterns, reason: 'refactor auth', kind: 'claim', ttlMs: 2 * hour, ...extra }
}

test('a free pattern is granted with the next fencing token and the requested expiry', () => {
  const decision = arbitrateClaim([], claim(bob, ['src/auth/**']), now, 'refuse', 41)
  assert.ok(decision.granted)
  assert.equal(decision.lastToken, 42)
  assert.deepEqual(decision.leases[0], {
    renewed: false,
    lease: {
      pattern: 'src/auth/**',
      holder: bob,
      kind: 'claim',
      reason: 'refactor auth',
      token: 42,
      takenAt: now,
      renewedAt: now,
      expiresAt: now + 2 * hour,
    },
  })
})

test('an overlapping claim held by another actor refuses every pattern of the request', () => {
  const held = lease(alice, 'src/auth/login.ts', { token: 7 })
  const decision = arbitrateClaim([held], claim(bob, ['docs/**', 'src/**']), now, 'refuse', 7)
  assert.deepEqual(decision, { granted: false, conflicts: [{ pattern: 'src/**', lease: held }] })
})

test('a directory glob claim conflicts with a file lease, and a file claim with a directory lease', () => {
  assert.equal(
    arbitrateClaim([lease(alice, 'src/a.ts')], claim(bob, ['src/**']), now, 'refuse', 1).granted,
    false,
  )
  assert.equal(
    arbitrateClaim([lease(alice, 'src/**')], claim(bob, ['src/a.ts']), now, 'refuse', 1).granted,
    false,
  )
  assert.equal(
    arbitrateClaim([lease(alice, 'src/**')], claim(bob, ['test/a.ts']), now, 'refuse', 1).granted,
    true,
  )
})

test('leases compare case-insensitively', () => {
  assert.equal(
    arbitrateClaim([lease(alice, 'src/Auth.ts')], claim(bob, ['SRC/auth.TS']), now, 'refuse', 1).granted,
    false,
  )
})

test('an expired lease is no obstacle: expiry is exclusive', () => {
  assert.equal(
    arbitrateClaim([lease(alice, 'src/**', { expiresAt: now })], claim(bob, ['src/a.ts']), now, 'refuse', 1)
      .granted,
    true,
  )
  assert.equal(
    arbitrateClaim(
      [lease(alice, 'src/**', { expiresAt: now + 1 })],
      claim(bob, ['src/a.ts']),
      now,
      'refuse',
      1,
    ).granted,
    false,
  )
})

test("claiming again renews the holder's lease: one lease per holder and pattern, same token", () => {
  const held = lease(bob, 'src/auth/**', { token: 5, reason: 'old' })
  const decision = arbitrateClaim([held], claim(bob, ['SRC/auth/**', 'src/auth/**']), now, 'refuse', 9)
  assert.ok(decision.granted)
  assert.equal(decision.leases.length, 1)
  assert.equal(decision.lastToken, 9, 'no new token for a renewal')
  assert.deepEqual(decision.leases[0], {
    renewed: true,
    lease: { ...held, reason: 'refactor auth', renewedAt: now, expiresAt: now + 2 * hour },
  })
})

test("a session's lease excludes every other session, the same human's too, and the human", () => {
  const held = [lease(aliceClaude, 'src/**')]
  for (const other of [aliceCodex, aliceSomeCodex, alice, bob]) {
    assert.equal(
      arbitrateClaim(held, claim(other, ['src/a.ts']), now, 'refuse', 1).granted,
      false,
      JSON.stringify(other),
    )
  }
  assert.equal(arbitrateClaim(held, claim(aliceClaude, ['src/a.ts']), now, 'refuse', 1).granted, true)
})

test("a human's lease covers that human's own sessions and nobody else", () => {
  const held = [lease(alice, 'src/**')]
  assert.equal(arbitrateClaim(held, claim(aliceClaude, ['src/a.ts']), now, 'refuse', 1).granted, true)
  assert.equal(arbitrateClaim(held, claim(bob, ['src/a.ts']), now, 'refuse', 1).granted, false)
  assert.ok(leaseCovers(aliceSomeCodex, aliceCodex) && !leaseCovers(aliceSomeCodex, aliceClaude))
})

test('auto-leases block claims under refuse, are overridden under advise and warn, ignored under off', () => {
  const auto = lease(aliceClaude, 'src/a.ts', { kind: 'auto', reason: 'editing' })
  assert.equal(arbitrateClaim([auto], claim(bob, ['src/**']), now, 'refuse', 1).granted, false)
  for (const rung of ['advise', 'warn'] as const) {
    const decision = arbitrateClaim([auto], claim(bob, ['src/**']), now, rung, 1)
    assert.ok(decision.granted)
    assert.deepEqual(decision.overrode, [auto])
  }
  const off = arbitrateClaim([auto], claim(bob, ['src/**']), now, 'off', 1)
  assert.ok(off.granted)
  assert.deepEqual(off.overrode, [])
  const autoRequest = claim(bob, ['src/a.ts'], { kind: 'auto', reason: 'editing' })
  assert.equal(
    arbitrateClaim([auto], autoRequest, now, 'warn', 1).granted,
    false,
    'an auto-lease never goes over one',
  )
})

test('only the holder releases; a forced release names what it took from whom', () => {
  const bobs = lease(bob, 'src/**', { token: 3 })
  const mine = lease(alice, 'docs/**', { token: 4 })
  assert.deepEqual(
    planRelease([bobs, mine], { actor: alice, patterns: ['SRC/**'], forceReason: null }, now),
    {
      ok: false,
      problem: 'held-by-other',
      pattern: 'SRC/**',
      lease: bobs,
    },
  )
  assert.deepEqual(
    planRelease([bobs, mine], { actor: alice, patterns: ['src/**'], forceReason: 'bob is away' }, now),
    {
      ok: true,
      released: [bobs],
      forced: [bobs],
    },
  )
  assert.deepEqual(planRelease([bobs, mine], { actor: alice, patterns: null, forceReason: null }, now), {
    ok: true,
    released: [mine],
    forced: [],
  })
  assert.deepEqual(planRelease([bobs], { actor: alice, patterns: ['lib/**'], forceReason: null }, now), {
    ok: false,
    problem: 'not-found',
    pattern: 'lib/**',
  })
})

test('a release naming one pattern it cannot release releases nothing', () => {
  const decision = planRelease(
    [lease(alice, 'docs/**'), lease(bob, 'src/**')],
    { actor: alice, patterns: ['docs/**', 'src/**'], forceReason: null },
    now,
  )
  assert.equal(decision.ok, false)
})

test("a session's leases are found by its session id, live ones only", () => {
  const live = lease(aliceClaude, 'src/**')
  const expired = lease(aliceClaude, 'docs/**', { expiresAt: now - 1 })
  assert.deepEqual(sessionLeases([live, expired, lease(aliceCodex, 'lib/**')], 'c-1', now), [live])
})
