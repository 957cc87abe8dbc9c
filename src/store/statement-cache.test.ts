import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../project/store/project-database.ts'
import { cachedStatement } from './statement-cache.ts'

test('one statement per connection and SQL text, still right after the schema changes', async () => {
  await using dir = tmpDir()
  const a = openDatabaseFile(join(dir.path, 'a.db'))
  const b = openDatabaseFile(join(dir.path, 'b.db'))
  try {
    const sql = 'SELECT count(*) AS n FROM source_file'
    assert.equal(cachedStatement(a, sql), cachedStatement(a, sql))
    assert.notEqual(cachedStatement(a, sql), cachedStatement(b, sql))
    a.exec('CREATE TABLE scratch (x INTEGER)')
    const insert = cachedStatement(a, 'INSERT INTO scratch (x) VALUES (?)')
    insert.run(1)
    a.exec('ALTER TABLE scratch ADD COLUMN y INTEGER DEFAULT 7')
    cachedStatement(a, 'INSERT INTO scratch (x) VALUES (?)').run(2)
    assert.deepEqual(a.prepare('SELECT x, y FROM scratch ORDER BY x').all(), [
      { x: 1, y: 7 },
      { x: 2, y: 7 },
    ])
  } finally {
    a.close()
    b.close()
  }
})
