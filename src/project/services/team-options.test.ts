import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { queuedRecords } from '../../records/store/record-outbox.ts'
import { setRule } from '../../room/services/rule-change.ts'
import { listRules } from '../../room/services/rules.ts'
import { roomOptionApplier } from '../../room/store/records/room-option.ts'
import { readSetting } from '../../store/project-table.ts'
import type { SyncedRecordOf } from '../../sync/protocol/record.ts'
import { setProjectOption } from './project-options.ts'

/** Team options travel as room.option records: two real replicas, records handed across as served. */
const actor = { human: 'asha@example.com', vendor: null, sessionId: null }
const at = 1_800_000_000_000

async function replicas() {
  const dir = tmpDir()
  const a = openDatabaseFile(join(dir.path, 'a.db'))
  const b = openDatabaseFile(join(dir.path, 'b.db'))
  let gseq = 0
  const served = (draft: unknown): SyncedRecordOf<'room.option'> => ({
    ...(draft as Omit<SyncedRecordOf<'room.option'>, 'gseq' | 'receivedAt'>),
    gseq: ++gseq,
    receivedAt: new Date(at).toISOString(),
  })
  const queued = (db: typeof a) =>
    queuedRecords(db, 100)
      .filter((row) => row.type === 'room.option')
      .map((row) => served(row.draft))
  return {
    a,
    b,
    queued,
    served,
    apply: (db: typeof a, record: SyncedRecordOf<'room.option'>) =>
      roomOptionApplier.open(db).apply(record, 0),
    async [Symbol.asyncDispose]() {
      a.close()
      b.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

const rung = (db: Parameters<typeof listRules>[0], name: string) => {
  const rule = listRules(db).find((entry) => entry.name === name)
  return [rule?.rung, rule?.decided]
}

test('a rule set on one machine is queued once and applied on another; per-machine options stay home', async () => {
  await using r = await replicas()
  setRule(r.a, 'file-overlap', 'refuse', { actor, now: at })
  setProjectOption(r.a, 'leases.claim-ttl', '90m', { actor, now: at })
  setProjectOption(r.a, 'room.stale-days', '14', { actor, now: at })
  const records = r.queued(r.a)
  assert.deepEqual(
    records.map((record) => [record.payload.name, record.payload.value]),
    [
      ['room.file-overlap', 'refuse'],
      ['room.stale-days', 14],
    ],
  )
  for (const record of records) assert.equal(r.apply(r.b, record), true)
  assert.deepEqual(rung(r.b, 'file-overlap'), ['refuse', true])
  assert.deepEqual(readSetting(r.b, 'room'), { fileOverlap: 'refuse', staleDays: 14 })
  // Its own record coming back changes nothing; nor does the same record twice.
  for (const record of records) assert.equal(r.apply(r.a, record), false)
  for (const record of records) assert.equal(r.apply(r.b, record), false)
})

test('the newest change wins on every replica whatever order records arrive in', async () => {
  await using r = await replicas()
  setRule(r.a, 'one-actor-per-worktree', 'refuse', { actor, now: at })
  setRule(r.b, 'one-actor-per-worktree', 'off', { actor, now: at + 5 })
  const [fromA] = r.queued(r.a)
  const [fromB] = r.queued(r.b)
  assert.ok(fromA && fromB)
  // B's change is newer: A takes it, B keeps its own.
  assert.equal(r.apply(r.a, fromB), true)
  assert.equal(r.apply(r.b, fromA), false)
  assert.deepEqual(rung(r.a, 'one-actor-per-worktree'), ['off', true])
  assert.deepEqual(rung(r.b, 'one-actor-per-worktree'), ['off', true])
  // A change made on A after it saw B's is later than B's, even with A's clock behind.
  setRule(r.a, 'one-actor-per-worktree', 'warn', { actor, now: at + 1 })
  const later = r.queued(r.a).at(-1)
  assert.ok(later && later.payload.setAt > fromB.payload.setAt)
  assert.equal(r.apply(r.b, later), true)
  assert.deepEqual(rung(r.b, 'one-actor-per-worktree'), ['warn', true])
})

test('lease-collision travels as leases.auto-lease; unknown options and bad values change nothing', async () => {
  await using r = await replicas()
  setRule(r.a, 'lease-collision', 'warn', { actor, now: at })
  const [record] = r.queued(r.a)
  assert.ok(record)
  assert.equal(record.payload.name, 'leases.auto-lease')
  assert.equal(r.apply(r.b, record), true)
  assert.deepEqual(readSetting(r.b, 'leases'), { autoLease: 'warn' })
  const bad = (name: string, value: string | number, id: string) =>
    r.served({ ...record, id, payload: { name, value, setAt: at + 100 } })
  assert.equal(r.apply(r.b, bad('room.not-yet-known', 'x', 'option:a')), false)
  assert.equal(r.apply(r.b, bad('room.file-overlap', 'loud', 'option:b')), false)
  assert.equal(r.apply(r.b, bad('leases.claim-ttl', 60_000, 'option:c')), false)
  assert.equal(readSetting(r.b, 'room'), undefined)
  assert.deepEqual(readSetting(r.b, 'leases'), { autoLease: 'warn' })
})
