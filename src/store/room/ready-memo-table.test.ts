import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../database.ts'
import { markReadyConflictClosed, readReadyConflicts, recordReadyConflict } from './ready-conflict-table.ts'
import { countReadyMemo, pruneReadyMemo, readMemo, writeMemo } from './ready-memo-table.ts'

test('memoised answers are found by kind and pair; the least recently used go past the bound', async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  writeMemo(
    db,
    'merge',
    [
      { left: 'a', right: 'b', answer: { clean: false, paths: ['x.ts', 'y ts'] } },
      { left: 'a', right: 'c', answer: { clean: true, paths: [] } },
    ],
    1,
  )
  writeMemo(db, 'touched', [{ left: 'a', right: 'b', answer: { clean: true, paths: ['t.ts'] } }], 2)
  const merges = readMemo(
    db,
    'merge',
    [
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ],
    10,
  )
  assert.deepEqual(merges.get('a\nb'), { clean: false, paths: ['x.ts', 'y ts'] })
  assert.deepEqual(merges.get('a\nc'), { clean: true, paths: [] })
  assert.equal(merges.has('b\nc'), false)
  assert.deepEqual(readMemo(db, 'touched', [['a', 'b']], 3).get('a\nb'), { clean: true, paths: ['t.ts'] })
  // Used at 10, 10 and 3: keeping two drops the touched row, used least recently.
  assert.equal(pruneReadyMemo(db, 2), 1)
  assert.equal(countReadyMemo(db), 2)
  assert.equal(readMemo(db, 'touched', [['a', 'b']], 11).size, 0)
  db.close()
})

test('a conflict set remembers its thread, its commits and who closed it', async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  recordReadyConflict(db, { key: '/a\n/b', threadId: 'thr-1', commits: 'c1\nc2' }, 1)
  markReadyConflictClosed(db, '/a\n/b', 2)
  assert.deepEqual(readReadyConflicts(db), [
    { key: '/a\n/b', threadId: 'thr-1', commits: 'c1\nc2', closedByReady: true },
  ])
  recordReadyConflict(db, { key: '/a\n/b', threadId: 'thr-2', commits: 'c1\nc3' }, 3)
  assert.deepEqual(readReadyConflicts(db), [
    { key: '/a\n/b', threadId: 'thr-2', commits: 'c1\nc3', closedByReady: false },
  ])
  db.close()
})
