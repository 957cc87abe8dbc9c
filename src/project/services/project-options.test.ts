import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { readLeaseSettings } from '../../leases/services/settings.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { readSetting, writeSetting } from '../../store/project-table.ts'
import { readSyncSettings } from '../../sync/services/settings.ts'
import { listProjectOptions, setProjectOption } from './project-options.ts'

const by = { actor: { human: 'asha@example.com', vendor: null, sessionId: null }, now: 1_800_000_000_000 }

async function project() {
  const dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  return {
    db,
    async [Symbol.asyncDispose]() {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

test('options lists every option at its default until one is set; setting one stores it as before', async () => {
  await using p = await project()
  const before = listProjectOptions(p.db)
  assert.deepEqual(
    before.map((option) => [option.name, option.value, option.set]),
    [
      ['leases.auto-lease', 'refuse', false],
      ['leases.auto-lease-ttl', 600_000, false],
      ['leases.claim-ttl', 7_200_000, false],
      ['leases.release-on-session-end', true, false],
      ['sync.share-tool-output', false, false],
      ['room.one-actor-per-worktree', 'warn', false],
      ['room.file-overlap', 'warn', false],
      ['room.stale-worktrees', 'advise', false],
      ['room.stale-days', 30, false],
      ['room.wake-on-tag', 'direct', false],
      ['room.delivery-cooldown', 60, false],
      ['room.delivery-loop-budget', 4, false],
      ['room.doing-hours', 4, false],
      ['lanes.check-command', '', false],
      ['lanes.lock-stale-minutes', 30, false],
      ['lanes.push-remote', '', false],
    ],
  )
  const set = setProjectOption(p.db, 'leases.auto-lease', 'warn', by)
  assert.deepEqual([set.name, set.value, set.default, set.set], ['leases.auto-lease', 'warn', 'refuse', true])
  setProjectOption(p.db, 'leases.claim-ttl', '90m', by)
  setProjectOption(p.db, 'sync.share-tool-output', 'true', by)
  // The stored format is the one the lease and sync settings always had.
  assert.deepEqual(readSetting(p.db, 'leases'), { autoLease: 'warn', claimTtlMs: 5_400_000 })
  assert.deepEqual(readSetting(p.db, 'sync'), { shareToolOutput: true })
  assert.equal(readLeaseSettings(p.db).autoLease, 'warn')
  assert.equal(readSyncSettings(p.db).shareToolOutput, true)
  const listed = listProjectOptions(p.db).find((option) => option.name === 'leases.claim-ttl')
  assert.deepEqual([listed?.value, listed?.set], [5_400_000, true])
})

test('an unknown option, a wrong type and an unknown rung are clear errors that write nothing', async () => {
  await using p = await project()
  const refusals: [string, string, RegExp][] = [
    [
      'leases.autolease',
      'warn',
      /there is no project option "leases\.autolease"; did you mean leases\.auto-lease or leases\.auto-lease-ttl\? The options are leases\.auto-lease/,
    ],
    ['leases.auto-lease', 'loud', /leases\.auto-lease is one of off, advise, warn, refuse; got "loud"/],
    ['leases.release-on-session-end', 'sometimes', /leases\.release-on-session-end is not true or false/],
    ['leases.claim-ttl', 'forever', /leases\.claim-ttl is a duration like 30m/],
  ]
  for (const [name, value, message] of refusals) {
    assert.throws(() => setProjectOption(p.db, name, value, by), { code: 'INVALID_INPUT', message }, name)
  }
  assert.equal(readSetting(p.db, 'leases'), undefined)
})

test('sync settings stay lenient as they were: an unreadable value takes the default, sharing less', async () => {
  await using p = await project()
  writeSetting(p.db, 'sync', { shareToolOutput: 'yes' })
  assert.deepEqual(readSyncSettings(p.db), { shareToolOutput: false })
  writeSetting(p.db, 'sync', 'garbage')
  assert.deepEqual(readSyncSettings(p.db), { shareToolOutput: false })
})
