import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bob, codex, sampleLease } from '../../../test/helpers/sample-lease.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { Lease, LeaseLogEntry } from '../protocol/lease.ts'
import { leaseBriefSection } from './brief.ts'

const now = Date.parse('2026-11-30T10:00:00Z')
const minute = 60_000
const reader: Actor = { human: 'alice@x.dev', vendor: 'claude', sessionId: 'c-1' }
const alice: Actor = { human: 'alice@x.dev', vendor: null, sessionId: null }

function lease(holder: Actor, pattern: string, extra: Partial<Lease> = {}): Lease {
  return sampleLease(holder, pattern, now, extra)
}

function event(action: LeaseLogEntry['action'], holder: Actor, by: Actor, reason: string): LeaseLogEntry {
  return { at: now - minute, action, pattern: 'docs/**', token: 4, holder, by, reason }
}

test("the brief lists what others hold, a lease forced from the reader first, and the reader's claims about to end", () => {
  const section = leaseBriefSection({
    leases: [
      lease(bob, 'src/auth/**', { reason: 'auth rewrite' }),
      lease(codex, 'src/a.ts', { kind: 'auto', reason: 'editing' }),
      lease(alice, 'lib/**'),
      lease(reader, 'docs/**', { expiresAt: now + 10 * minute }),
      lease(reader, 'test/**', { expiresAt: now + 90 * minute }),
    ],
    events: [event('collision', codex, bob, 'editing'), event('force-released', reader, bob, 'stale')],
    reader,
    now,
  })
  assert.deepEqual(section.lines, [
    'your lease on docs/** was released by bob@x.dev: "stale"',
    'src/auth/**: bob@x.dev until 11:00 UTC (in 1 h): "auth rewrite"',
    "src/a.ts: being edited by alice@x.dev's codex session x-1",
    "bob@x.dev edited docs/** while alice@x.dev's codex session x-1 was editing it",
    'yours: docs/** ends in 10 min; claim again to keep it',
  ])
})

test('a session is told its human took over its auto-lease; nobody else is', () => {
  const takeover = event('taken-over', reader, alice, 'finishing it myself')
  const told = leaseBriefSection({ leases: [], events: [takeover], reader, now })
  assert.deepEqual(told.lines, [
    'your auto-lease on docs/** was taken over by alice@x.dev, whose claim covers your edits: "finishing it myself"',
  ])
  const other = leaseBriefSection({ leases: [], events: [takeover], reader: codex, now })
  assert.deepEqual(other.lines, [], 'not shown as a forced release to anyone')
})

test("a human's own lease does not show as someone else's to that human's sessions", () => {
  const section = leaseBriefSection({ leases: [lease(alice, 'lib/**')], events: [], reader, now })
  assert.deepEqual(section.lines, [])
  assert.equal(section.empty, 'nothing is leased by others')
})
