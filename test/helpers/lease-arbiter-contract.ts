import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Actor, Lease, LeaseLogEntry, LeaseSettings } from '../../src/protocol/lease.ts'
import type { LeaseArbiter } from '../../src/services/leases/arbiter.ts'
import type { ManualClock } from '../../src/shared/clock.ts'

/** One arbiter under test, with a way to look at what it stored and to change project settings. */
export interface ArbiterFixture extends AsyncDisposable {
  readonly arbiter: LeaseArbiter
  readonly clock: ManualClock
  /** Every stored lease row, expired or not. */
  storedLeases(): Lease[]
  log(): LeaseLogEntry[]
  setSettings(changes: Partial<LeaseSettings>): void
}

const minute = 60_000
const alice: Actor = { human: 'alice@x.dev', vendor: null, sessionId: null }
const claude: Actor = { human: 'alice@x.dev', vendor: 'claude', sessionId: 'c-1' }
const codex: Actor = { human: 'alice@x.dev', vendor: 'codex', sessionId: 'x-1' }
const bob: Actor = { human: 'bob@x.dev', vendor: null, sessionId: null }

/**
 * What every LeaseArbiter must do, whoever arbitrates (the local replica today, a team server
 * later). Each implementation's test file calls this with a factory for fresh fixtures.
 */
export function leaseArbiterContract(name: string, make: () => ArbiterFixture): void {
  test(`${name}: a claim is granted all or none, and a refusal names holder, reason and expiry`, async () => {
    await using f = make()
    const first = await f.arbiter.claim({
      actor: alice,
      patterns: ['src/auth/**'],
      reason: 'auth rewrite',
      ttlMs: null,
    })
    assert.ok(first.granted)
    const second = await f.arbiter.claim({
      actor: bob,
      patterns: ['docs/**', 'src/auth/login.ts'],
      reason: 'x',
      ttlMs: null,
    })
    assert.ok(!second.granted)
    assert.equal(second.conflicts[0]?.lease.holder.human, 'alice@x.dev')
    assert.equal(second.conflicts[0]?.lease.reason, 'auth rewrite')
    assert.equal(second.conflicts[0]?.lease.expiresAt, f.clock.now() + 2 * 60 * minute)
    assert.deepEqual(
      f.storedLeases().map((lease) => lease.pattern),
      ['src/auth/**'],
      'nothing of the refused claim was stored',
    )
  })

  test(`${name}: fencing tokens strictly increase and are never reused`, async () => {
    await using f = make()
    const tokens: number[] = []
    for (const pattern of ['a/**', 'b/**', 'c/**']) {
      const result = await f.arbiter.claim({ actor: alice, patterns: [pattern], reason: 'r', ttlMs: null })
      assert.ok(result.granted)
      tokens.push(result.leases[0]?.token ?? 0)
      await f.arbiter.release({ actor: alice, patterns: [pattern], forceReason: null })
    }
    assert.ok(tokens[0] !== undefined && tokens[0] > 0)
    assert.deepEqual(
      tokens,
      [...tokens].sort((x, y) => x - y),
    )
    assert.equal(new Set(tokens).size, 3)
  })

  test(`${name}: claiming again renews: one lease per holder and pattern, same token, new expiry`, async () => {
    await using f = make()
    const first = await f.arbiter.claim({
      actor: claude,
      patterns: ['src/a.ts'],
      reason: 'one',
      ttlMs: 30 * minute,
    })
    f.clock.advance(20 * minute)
    const again = await f.arbiter.claim({
      actor: claude,
      patterns: ['SRC/A.ts'],
      reason: 'two',
      ttlMs: 30 * minute,
    })
    assert.ok(first.granted && again.granted)
    assert.equal(again.leases[0]?.renewed, true)
    assert.equal(again.leases[0]?.token, first.leases[0]?.token)
    const stored = f.storedLeases()
    assert.equal(stored.length, 1)
    assert.equal(stored[0]?.reason, 'two')
    assert.equal(stored[0]?.expiresAt, f.clock.now() + 30 * minute)
  })

  test(`${name}: an expired lease stands in nobody's way`, async () => {
    await using f = make()
    await f.arbiter.claim({ actor: alice, patterns: ['src/**'], reason: 'r', ttlMs: 10 * minute })
    f.clock.advance(10 * minute - 1)
    assert.equal(
      (await f.arbiter.claim({ actor: bob, patterns: ['src/x.ts'], reason: 'r', ttlMs: null })).granted,
      false,
    )
    f.clock.advance(1)
    assert.equal(
      (await f.arbiter.claim({ actor: bob, patterns: ['src/x.ts'], reason: 'r', ttlMs: null })).granted,
      true,
    )
  })

  test(`${name}: only the holder releases; a forced release is recorded with its reason`, async () => {
    await using f = make()
    await f.arbiter.claim({ actor: claude, patterns: ['src/**'], reason: 'refactor', ttlMs: null })
    const refused = await f.arbiter.release({ actor: bob, patterns: ['src/**'], forceReason: null })
    assert.deepEqual(refused.ok ? null : refused.problem, 'held-by-other')
    const forced = await f.arbiter.release({
      actor: bob,
      patterns: ['src/**'],
      forceReason: 'alice is on leave',
    })
    assert.ok(forced.ok && forced.forced.length === 1)
    assert.deepEqual(f.storedLeases(), [])
    const entry = f.log().find((e) => e.action === 'force-released')
    assert.deepEqual(
      entry && { pattern: entry.pattern, holder: entry.holder, by: entry.by, reason: entry.reason },
      { pattern: 'src/**', holder: claude, by: bob, reason: 'alice is on leave' },
    )
  })

  test(`${name}: an edit takes an auto-lease that each edit renews, and that keeps other sessions out`, async () => {
    await using f = make()
    const first = await f.arbiter.recordEdit(claude, ['src/a.ts'])
    assert.deepEqual([first.decision, first.autoLease?.pattern], ['allow', 'src/a.ts'])
    const token = f.storedLeases()[0]?.token
    f.clock.advance(8 * minute)
    await f.arbiter.recordEdit(claude, ['src/a.ts'])
    assert.deepEqual(
      f.storedLeases().map((lease) => [lease.kind, lease.token, lease.expiresAt]),
      [['auto', token, f.clock.now() + 10 * minute]],
    )
    const other = await f.arbiter.recordEdit(codex, ['src/a.ts'])
    assert.equal(other.decision, 'deny')
    f.clock.advance(10 * minute)
    assert.equal((await f.arbiter.recordEdit(codex, ['src/a.ts'])).decision, 'allow', 'the auto-lease lapsed')
  })

  test(`${name}: under warn a collision is allowed and recorded for the team`, async () => {
    await using f = make()
    f.setSettings({ autoLease: 'warn' })
    await f.arbiter.recordEdit(claude, ['src/a.ts'])
    const outcome = await f.arbiter.recordEdit(codex, ['src/a.ts'])
    assert.deepEqual([outcome.decision, outcome.warnings.length], ['allow', 1])
    const collision = f.log().find((entry) => entry.action === 'collision')
    assert.deepEqual(collision && [collision.holder, collision.by], [claude, codex])
    assert.equal(f.storedLeases().length, 1, 'the second editor takes no auto-lease over the first')
  })

  test(`${name}: a session's leases end with it, unless the project keeps them`, async () => {
    await using f = make()
    await f.arbiter.claim({ actor: claude, patterns: ['src/**'], reason: 'r', ttlMs: null })
    await f.arbiter.recordEdit(codex, ['docs/a.md'])
    assert.deepEqual(
      (await f.arbiter.releaseSessionLeases('c-1')).map((lease) => lease.pattern),
      ['src/**'],
    )
    assert.deepEqual(
      f.storedLeases().map((lease) => lease.holder),
      [codex],
    )
    assert.ok(f.log().some((entry) => entry.action === 'session-ended' && entry.pattern === 'src/**'))
    f.setSettings({ releaseOnSessionEnd: false })
    assert.deepEqual(await f.arbiter.releaseSessionLeases('x-1'), [])
    assert.equal(f.storedLeases().length, 1)
  })

  test(`${name}: a claim without a reason is refused as invalid input`, async () => {
    await using f = make()
    await assert.rejects(f.arbiter.claim({ actor: alice, patterns: ['src/**'], reason: '  ', ttlMs: null }), {
      code: 'INVALID_INPUT',
    })
  })
}
