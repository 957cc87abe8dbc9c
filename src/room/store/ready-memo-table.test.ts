import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { markReadyConflictClosed, readReadyConflicts, recordReadyConflict } from './ready-conflict-table.ts'
import { countReadyMemo, maxMemoRows, pruneReadyMemo, readMemo, writeMemo } from './ready-memo-table.ts'

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
  // Merges used at 10 and 10 with the later read of a\nc last: keeping one of them drops a\nb;
  // the touched row is another kind's and stays.
  readMemo(db, 'merge', [['a', 'c']], 12)
  assert.equal(pruneReadyMemo(db, 'merge', 1), 1)
  assert.equal(countReadyMemo(db), 2)
  assert.equal(readMemo(db, 'merge', [['a', 'b']], 13).size, 0)
  assert.equal(readMemo(db, 'touched', [['a', 'b']], 13).size, 1)
  assert.equal(pruneReadyMemo(db, 'touched', 0), 1)
  assert.equal(countReadyMemo(db), 1)
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

test("writing past a kind's bound keeps its most recently used rows", async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  const rows = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      left: 'target',
      right: `lane-${from + i}`,
      answer: { clean: true, paths: ['a.ts'] },
    }))
  writeMemo(db, 'touched', rows(0, maxMemoRows.touched), 1)
  writeMemo(db, 'touched', rows(maxMemoRows.touched, 5), 2)
  assert.equal(countReadyMemo(db), maxMemoRows.touched)
  assert.equal(readMemo(db, 'touched', [['target', `lane-${maxMemoRows.touched + 4}`]], 3).size, 1)
  db.close()
})
