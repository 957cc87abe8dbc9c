import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { ManualClock } from '../shared/clock.ts'
import { openDatabaseFile } from './database.ts'
import { migrations, schemaVersion } from './migrations.ts'

test('each migration step is stamped by the clock the database was opened with', async () => {
  await using dir = tmpDir()
  const clock = new ManualClock(Date.parse('2026-03-04T05:06:07Z'))
  const db = openDatabaseFile(join(dir.path, 'sangam.db'), { clock })
  try {
    const steps = db.prepare('SELECT version, applied_at FROM schema_migration ORDER BY version').all()
    assert.deepEqual(
      steps,
      migrations.map((step) => ({ version: step.version, applied_at: clock.now() })),
    )
    assert.equal(db.pragma('user_version', { simple: true }), schemaVersion)
  } finally {
    db.close()
  }
})
