import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Actor } from '../../src/identity/protocol/actor.ts'
import type { Lease, LeaseLogEntry, LeaseSettings } from '../../src/leases/protocol/lease.ts'
import type { LeaseArbiter } from '../../src/leases/services/arbiter.ts'
import { bob, claude, codex } from './sample-lease.ts'

/** One arbiter under test, with a way to look at what it stored and to change project settings. */
export interface ArbiterFixture extends AsyncDisposable {
  readonly arbiter: LeaseArbiter
  /** The time the caller and the arbiter both see. */
  now(): number
  /** Moves time on, for the caller and the arbiter alike. */
  advance(ms: number): Promise<void>
  /** The leases the arbiter holds (the local replica's rows expired or not; the server's live ones). */
  storedLeases(): Promise<Lease[]>
  /** The lease log this machine keeps (for the server: after applying its records, as a client does). */
  log(): Promise<LeaseLogEntry[]>
  setSettings(changes: Partial<LeaseSettings>): void
  /**
   * The same kind of arbiter, cut off from whoever decides: for the server, one whose server does
   * not answer; null for the local replica, which is a file on this machine.
   */
  cutOff(): LeaseArbiter | null
}

/**
 * Where an implementation legitimately differs from the local replica. The contract asserts each
 * difference as behaviour; no test is skipped for either implementation.
 */
export interface ArbiterDifferences {
  /**
   * The log entry a session end leaves: the local replica logs `session-ended`; the server arbiter
   * releases as the holder (the server keeps no settings), so its record reads `released`.
   */
  readonly sessionEndAction: 'session-ended' | 'released'
}

export const localArbiter: ArbiterDifferences = { sessionEndAction: 'session-ended' }
export const serverArbiter: ArbiterDifferences = { sessionEndAction: 'released' }

const minute = 60_000
const alice: Actor = { human: 'alice@x.dev', vendor: null, sessionId: null }
const bobsClaude: Actor = { human: 'bob@x.dev', vendor: 'claude', sessionId: 'b-1' }

/**
 * What every LeaseArbiter must do, whoever arbitrates: the local replica
 * (leases/services/local-arbiter.test.ts) and the team server's Durable Object through
 * `ServerLeaseArbiter` (test/server-arbiter.test.ts). Each calls this with a factory for fresh
 * fixtures and the differences it declares.
 */
export function leaseArbiterContract(
  name: string,
  differences: ArbiterDifferences,
  make: () => Promise<ArbiterFixture>,
): void {
  test(`${name}: a claim is granted all or none, and a refusal names holder, reason and expiry`, async () => {
    await using f = await make()
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
    assert.equal(second.conflicts[0]?.lease.expiresAt, f.now() + 2 * 60 * minute)
    assert.deepEqual(
      (await f.storedLeases()).map((lease) => lease.pattern),
      ['src/auth/**'],
      'nothing of the refused claim was stored',
    )
  })

  test(`${name}: fencing tokens strictly increase and are never reused`, async () => {
    await using f = await make()
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
    await using f = await make()
    const first = await f.arbiter.claim({
      actor: claude,
      patterns: ['src/a.ts'],
      reason: 'one',
      ttlMs: 30 * minute,
    })
    await f.advance(20 * minute)
    const again = await f.arbiter.claim({
      actor: claude,
      patterns: ['SRC/A.ts'],
      reason: 'two',
      ttlMs: 30 * minute,
    })
    assert.ok(first.granted && again.granted)
    assert.equal(again.leases[0]?.renewed, true)
    assert.equal(again.leases[0]?.token, first.leases[0]?.token)
    const stored = await f.storedLeases()
    assert.equal(stored.length, 1)
    assert.equal(stored[0]?.reason, 'two')
    assert.equal(stored[0]?.expiresAt, f.now() + 30 * minute)
  })

  test(`${name}: an expired lease stands in nobody's way`, async () => {
    await using f = await make()
    await f.arbiter.claim({ actor: alice, patterns: ['src/**'], reason: 'r', ttlMs: 10 * minute })
    await f.advance(10 * minute - 1)
    assert.equal(
      (await f.arbiter.claim({ actor: bob, patterns: ['src/x.ts'], reason: 'r', ttlMs: null })).granted,
      false,
    )
    await f.advance(1)
    assert.equal(
      (await f.arbiter.claim({ actor: bob, patterns: ['src/x.ts'], reason: 'r', ttlMs: null })).granted,
      true,
    )
  })

  test(`${name}: only the holder releases; a forced release is recorded with its reason`, async () => {
    await using f = await make()
    await f.arbiter.claim({ actor: claude, patterns: ['src/**'], reason: 'refactor', ttlMs: null })
    const refused = await f.arbiter.release({ actor: bob, patterns: ['src/**'], forceReason: null })
    assert.deepEqual(refused.ok ? null : refused.problem, 'held-by-other')
    const forced = await f.arbiter.release({
      actor: bob,
      patterns: ['src/**'],
      forceReason: 'alice is on leave',
    })
    assert.ok(forced.ok && forced.forced.length === 1)
    assert.deepEqual(await f.storedLeases(), [])
    const entry = (await f.log()).find((e) => e.action === 'force-released')
    assert.deepEqual(
      entry && { pattern: entry.pattern, holder: entry.holder, by: entry.by, reason: entry.reason },
      { pattern: 'src/**', holder: claude, by: bob, reason: 'alice is on leave' },
    )
  })

  test(`${name}: an edit takes an auto-lease that each edit renews, and that keeps other sessions out`, async () => {
    await using f = await make()
    const first = await f.arbiter.recordEdit(claude, ['src/a.ts'])
    assert.deepEqual([first.decision, first.autoLease?.pattern], ['allow', 'src/a.ts'])
    const token = (await f.storedLeases())[0]?.token
    await f.advance(8 * minute)
    await f.arbiter.recordEdit(claude, ['src/a.ts'])
    assert.deepEqual(
      (await f.storedLeases()).map((lease) => [lease.kind, lease.token, lease.expiresAt]),
      [['auto', token, f.now() + 10 * minute]],
    )
    const other = await f.arbiter.recordEdit(codex, ['src/a.ts'])
    assert.equal(other.decision, 'deny')
    await f.advance(10 * minute)
    assert.equal((await f.arbiter.recordEdit(codex, ['src/a.ts'])).decision, 'allow', 'the auto-lease lapsed')
  })

  test(`${name}: under warn a collision is allowed and recorded for the team`, async () => {
    await using f = await make()
    f.setSettings({ autoLease: 'warn' })
    await f.arbiter.recordEdit(claude, ['src/a.ts'])
    const outcome = await f.arbiter.recordEdit(codex, ['src/a.ts'])
    assert.deepEqual([outcome.decision, outcome.warnings.length], ['allow', 1])
    const collision = (await f.log()).find((entry) => entry.action === 'collision')
    assert.deepEqual(collision && [collision.holder, collision.by], [claude, codex])
    assert.equal((await f.storedLeases()).length, 1, 'the second editor takes no auto-lease over the first')
  })

  test(`${name}: a session's leases end with it, unless the project keeps them`, async () => {
    await using f = await make()
    await f.arbiter.claim({ actor: claude, patterns: ['src/**'], reason: 'r', ttlMs: null })
    await f.arbiter.recordEdit(codex, ['docs/a.md'])
    assert.deepEqual(
      (await f.arbiter.releaseSessionLeases('c-1')).map((lease) => lease.pattern),
      ['src/**'],
    )
    assert.deepEqual(
      (await f.storedLeases()).map((lease) => lease.holder),
      [codex],
    )
    const ended = (await f.log()).filter((entry) => entry.pattern === 'src/**' && entry.action !== 'granted')
    assert.deepEqual(
      ended.map((entry) => [entry.action, entry.holder, entry.by]),
      [[differences.sessionEndAction, claude, claude]],
    )
    f.setSettings({ releaseOnSessionEnd: false })
    assert.deepEqual(await f.arbiter.releaseSessionLeases('x-1'), [])
    assert.equal((await f.storedLeases()).length, 1)
  })

  test(`${name}: a claim without a reason is refused as invalid input`, async () => {
    await using f = await make()
    await assert.rejects(f.arbiter.claim({ actor: alice, patterns: ['src/**'], reason: '  ', ttlMs: null }), {
      code: 'INVALID_INPUT',
    })
  })

  test(`${name}: a human's claim takes over their own agent's auto-lease; the lease ends and the log says so`, async () => {
    await using f = await make()
    await f.arbiter.recordEdit(claude, ['src/a.ts'])
    const auto = (await f.storedLeases())[0]
    const claimed = await f.arbiter.claim({
      actor: alice,
      patterns: ['src/**'],
      reason: 'I finish this',
      ttlMs: null,
    })
    assert.ok(claimed.granted, 'not refused as "held by your claude session"')
    assert.deepEqual(
      claimed.tookOver.map((lease) => [lease.token, lease.holder]),
      [[auto?.token, claude]],
    )
    assert.deepEqual(claimed.overrode, [])
    assert.deepEqual(
      (await f.storedLeases()).map((lease) => [lease.pattern, lease.holder, lease.kind]),
      [['src/**', alice, 'claim']],
      "the agent's auto-lease ended",
    )
    const entry = (await f.log()).find((e) => e.action === 'taken-over')
    assert.deepEqual(entry && [entry.pattern, entry.token, entry.holder, entry.by, entry.reason], [
      'src/a.ts',
      auto?.token,
      claude,
      alice,
      'I finish this',
    ])
    const next = await f.arbiter.recordEdit(claude, ['src/a.ts'])
    assert.equal(next.decision, 'allow', "the human's lease covers the session's further edits")
  })

  test(`${name}: a human takes over no one else's lease: not their agent's claim, not another human's agent`, async () => {
    await using f = await make()
    await f.arbiter.claim({ actor: claude, patterns: ['src/a.ts'], reason: 'on purpose', ttlMs: null })
    await f.arbiter.recordEdit(bobsClaude, ['src/b.ts'])
    const mine = await f.arbiter.claim({ actor: alice, patterns: ['src/a.ts'], reason: 'r', ttlMs: null })
    assert.equal(mine.granted, false, "an agent's own claim stands: forcing it takes release --force")
    const theirs = await f.arbiter.claim({ actor: alice, patterns: ['src/b.ts'], reason: 'r', ttlMs: null })
    assert.equal(theirs.granted, false)
    const sibling = await f.arbiter.recordEdit(codex, ['src/c.ts'])
    assert.equal(sibling.decision, 'allow')
    const byAgent = await f.arbiter.claim({ actor: claude, patterns: ['src/c.ts'], reason: 'r', ttlMs: null })
    assert.equal(byAgent.granted, false, 'an agent does not take over its sibling session')
    assert.equal((await f.storedLeases()).length, 3)
    assert.ok(!(await f.log()).some((entry) => entry.action === 'taken-over'))
  })

  test(`${name}: an arbiter that cannot answer grants nothing (the server's answer: UNCONFIRMED)`, async () => {
    await using f = await make()
    const cut = f.cutOff()
    if (cut === null) {
      // The local replica has no one to lose touch with: it always decides (or, locked past its
      // budget, fails with STORE_BUSY: local-arbiter.test.ts).
      assert.ok(
        (await f.arbiter.claim({ actor: alice, patterns: ['src/**'], reason: 'r', ttlMs: null })).granted,
      )
      return
    }
    await assert.rejects(cut.claim({ actor: alice, patterns: ['src/**'], reason: 'r', ttlMs: null }), {
      code: 'UNCONFIRMED',
    })
    await assert.rejects(cut.release({ actor: alice, patterns: null, forceReason: null }), {
      code: 'UNCONFIRMED',
    })
    assert.deepEqual(await f.storedLeases(), [])
    assert.ok((await f.arbiter.claim({ actor: bob, patterns: ['src/**'], reason: 'r', ttlMs: null })).granted)
  })
}
