import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { writeSetting } from '../../store/project-table.ts'
import { defaultLeaseSettings } from '../core/settings.ts'
import { readLeaseSettings, writeLeaseSettings } from './settings.ts'

test('settings start at the defaults, and a change keeps what was set before', async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    assert.deepEqual(readLeaseSettings(db), defaultLeaseSettings)
    writeLeaseSettings(db, { autoLease: 'warn' })
    writeLeaseSettings(db, { releaseOnSessionEnd: false })
    assert.deepEqual(readLeaseSettings(db), {
      ...defaultLeaseSettings,
      autoLease: 'warn',
      releaseOnSessionEnd: false,
    })
  } finally {
    db.close()
  }
})

test('unreadable stored settings are a clear error, and setting them again repairs them', async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    writeSetting(db, 'leases', { autoLease: 'loud' })
    assert.throws(() => readLeaseSettings(db), {
      code: 'STORE_INCOMPATIBLE',
      message: /sangam leases --auto-lease/,
    })
    writeLeaseSettings(db, { autoLease: 'advise' })
    assert.equal(readLeaseSettings(db).autoLease, 'advise')
  } finally {
    db.close()
  }
})

test('each malformed field is named; unknown fields are ignored', async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    const malformed: [unknown, RegExp][] = [
      [[], /not an object/],
      ['refuse', /not an object/],
      [{ autoLease: 'REFUSE' }, /autoLease is one of off, advise, warn, refuse/],
      [{ autoLeaseTtlMs: 0 }, /autoLeaseTtlMs is not a positive integer/],
      [{ autoLeaseTtlMs: 1.5 }, /autoLeaseTtlMs is not a positive integer/],
      [{ claimTtlMs: '2h' }, /claimTtlMs is not a positive integer/],
      [{ releaseOnSessionEnd: 'yes' }, /releaseOnSessionEnd is not true or false/],
    ]
    for (const [value, message] of malformed) {
      writeSetting(db, 'leases', value)
      assert.throws(
        () => readLeaseSettings(db),
        { code: 'STORE_INCOMPATIBLE', message },
        JSON.stringify(value),
      )
    }
    writeSetting(db, 'leases', { claimTtlMs: 60_000, later: 'a field from a newer sangam' })
    assert.deepEqual(readLeaseSettings(db), { ...defaultLeaseSettings, claimTtlMs: 60_000 })
    assert.deepEqual(writeLeaseSettings(db, { autoLease: 'off' }), {
      ...defaultLeaseSettings,
      autoLease: 'off',
      claimTtlMs: 60_000,
    })
  } finally {
    db.close()
  }
})
