import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { leaseArbiterContract, localArbiter } from '../../../test/helpers/lease-arbiter-contract.ts'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { tmpStore } from '../../../test/helpers/tmp-store.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { leaseLogActionSchema } from '../protocol/lease.ts'
import { readLeaseLog, readLeases } from '../store/lease-table.ts'
import { LocalLeaseArbiter } from './local-arbiter.ts'
import { writeLeaseSettings } from './settings.ts'

const start = Date.parse('2026-11-30T10:00:00Z')

leaseArbiterContract('LocalLeaseArbiter', localArbiter, async () => {
  const dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  const clock = new ManualClock(start)
  return {
    arbiter: new LocalLeaseArbiter(db, clock),
    now: () => clock.now(),
    advance: async (ms) => clock.advance(ms),
    storedLeases: async () => readLeases(db, Number.MIN_SAFE_INTEGER),
    log: async () => readLeaseLog(db, 0, leaseLogActionSchema.options, 1000),
    setSettings: (changes) => {
      writeLeaseSettings(db, changes)
    },
    cutOff: () => null,
    [Symbol.asyncDispose]: async () => {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
})

test('two connections to one replica see each other: the second overlapping claim loses', async () => {
  await using store = tmpStore()
  const clock = new ManualClock(start)
  const one = store.open()
  const two = store.open()
  const alice = { human: 'alice@x.dev', vendor: null, sessionId: null }
  const bob = { human: 'bob@x.dev', vendor: null, sessionId: null }
  const first = await new LocalLeaseArbiter(one, clock).claim({
    actor: alice,
    patterns: ['src/**'],
    reason: 'a',
    ttlMs: null,
  })
  const second = await new LocalLeaseArbiter(two, clock).claim({
    actor: bob,
    patterns: ['src/a.ts'],
    reason: 'b',
    ttlMs: null,
  })
  assert.ok(first.granted)
  assert.ok(!second.granted)
  assert.equal(second.conflicts[0]?.lease.token, first.leases[0]?.token)
})

test('a writer holding the lock past the edit budget makes the edit check fail with STORE_BUSY, not hang', async () => {
  await using store = tmpStore()
  const holder = store.open()
  const checker = store.open()
  holder.exec('BEGIN IMMEDIATE')
  const arbiter = new LocalLeaseArbiter(checker, new ManualClock(start), { editBusyTimeoutMs: 50 })
  const actor = { human: 'alice@x.dev', vendor: 'claude' as const, sessionId: 'c-1' }
  await assert.rejects(arbiter.recordEdit(actor, ['src/a.ts']), { code: 'STORE_BUSY' })
  holder.exec('ROLLBACK')
})
