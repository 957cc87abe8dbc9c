import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { ManualClock } from '../shared/clock.ts'
import { SangamError } from '../shared/sangam-error.ts'
import { openStoreFile } from './database.ts'
import type { Schema } from './migrations.ts'
import { schemaVersion } from './migrations.ts'

const schema: Schema = [
  { version: 1, name: 'a table', sql: 'CREATE TABLE a (id INTEGER PRIMARY KEY);' },
  { version: 3, name: 'another table', sql: 'CREATE TABLE b (id INTEGER PRIMARY KEY);' },
]

test('each migration step is stamped by the clock the database was opened with', async () => {
  await using dir = tmpDir()
  const clock = new ManualClock(Date.parse('2026-03-04T05:06:07Z'))
  const db = openStoreFile(join(dir.path, 'sangam.db'), schema, { clock })
  try {
    const steps = db.prepare('SELECT version, applied_at FROM schema_migration ORDER BY version').all()
    assert.deepEqual(
      steps,
      schema.map((step) => ({ version: step.version, applied_at: clock.now() })),
    )
    assert.equal(db.pragma('user_version', { simple: true }), schemaVersion(schema))
  } finally {
    db.close()
  }
})

test('a database migrated further than the schema it is opened with is refused', async () => {
  await using dir = tmpDir()
  const file = join(dir.path, 'sangam.db')
  openStoreFile(file, schema).close()
  assert.throws(
    () => openStoreFile(file, schema.slice(0, 1)),
    (error) => error instanceof SangamError && error.code === 'STORE_INCOMPATIBLE',
  )
})
