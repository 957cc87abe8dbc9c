import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { type OverlapRow, overlapsAt, readOverlaps, replaceOverlaps } from './overlap-table.ts'

const row = (worktree: string, path: string, other: string, conflicted: boolean): OverlapRow => ({
  worktree,
  path,
  otherWorktree: other,
  otherBranch: `lane/${other.slice(1)}`,
  conflicted,
  computedAt: 1000,
})

test('a new picture replaces the old one whole, and the hook finds the collisions of one path', () => {
  const db = openDatabaseFile(join(tmpDir().path, 'sangam.db'))
  replaceOverlaps(db, [row('/a', 'src/x.ts', '/b', true), row('/a', 'src/y.ts', '/b', false)])
  replaceOverlaps(db, [row('/a', 'src/x.ts', '/c', false), row('/a', 'src/x.ts', '/b', true)])
  assert.deepEqual(
    overlapsAt(db, '/a', 'src/x.ts').map((found) => [found.otherWorktree, found.conflicted]),
    [
      ['/b', true],
      ['/c', false],
    ],
  )
  assert.deepEqual(overlapsAt(db, '/a', 'src/y.ts'), [])
  assert.equal(readOverlaps(db).length, 2)
  db.close()
})
