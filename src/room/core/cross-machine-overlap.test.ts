import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { WorktreeStatePayload } from '../protocol/worktree.ts'
import { crossMachinePicture, rangesCollide, remoteWorktreeName } from './cross-machine-overlap.ts'

test('ranges collide when they overlap or touch, as git conflicts on adjacent hunks', () => {
  assert.equal(rangesCollide([[3, 4]], [[4, 6]]), true, 'overlap')
  assert.equal(rangesCollide([[3, 4]], [[5, 5]]), true, 'adjacent: no unchanged line between')
  assert.equal(rangesCollide([[3, 4]], [[6, 7]]), false, 'line 5 between them merges cleanly')
  assert.equal(
    rangesCollide(
      [[10, 10]],
      [
        [1, 2],
        [11, 12],
      ],
    ),
    true,
    'any pair of hunks',
  )
  assert.equal(rangesCollide([[0, 0]], [[1, 1]]), true, 'an insertion at the top touches line 1')
  assert.equal(rangesCollide(null, [[900, 901]]), true, 'unknown ranges are the whole file')
  assert.equal(rangesCollide([], [[1, 1]]), false, 'no hunks: nothing to collide with')
})

const state = (
  machine: string,
  path: string,
  base: string,
  changes: WorktreeStatePayload['changes'],
  status: 'present' | 'missing' = 'present',
): WorktreeStatePayload => ({
  machine,
  path,
  status,
  target: path.slice(path.lastIndexOf('/') + 1),
  branch: `lane/${path.slice(path.lastIndexOf('/') + 1)}`,
  head: 'c'.repeat(40),
  base,
  lastCommitAt: 1,
  uncommitted: changes.length,
  changes,
  truncated: false,
  updatedAt: 7,
})

const baseOne = '1'.repeat(40)
const baseTwo = '2'.repeat(40)

test('same base: shared paths collide, conflicted where the ranges meet; only the first machine opens the thread', () => {
  const mine = state('m_a', '/a/lane', baseOne, [
    { path: 'src/x.ts', ranges: [[3, 4]] },
    { path: 'src/y.ts', ranges: [[1, 1]] },
    { path: 'src/only-mine.ts', ranges: [[1, 1]] },
  ])
  const theirs = state('m_b', '/b/lane', baseOne, [
    { path: 'src/x.ts', ranges: [[5, 9]] },
    { path: 'src/y.ts', ranges: [[40, 41]] },
  ])
  const picture = crossMachinePicture('m_a', [{ state: mine, commit: 'w1' }], [mine, theirs], 100)
  const other = remoteWorktreeName('m_b', '/b/lane')
  assert.equal(other, 'm_b:/b/lane')
  assert.deepEqual(
    picture.rows.map((row) => [row.worktree, row.path, row.otherWorktree, row.otherBranch, row.conflicted]),
    [
      ['/a/lane', 'src/x.ts', other, 'lane/lane', true],
      ['/a/lane', 'src/y.ts', other, 'lane/lane', false],
    ],
  )
  assert.deepEqual(picture.groups, [
    { worktrees: ['/a/lane', other], paths: ['src/x.ts'], commits: ['m_b:/b/lane@7', 'w1'] },
  ])

  // Machine B sees the same collision and the same rows, but leaves the thread to m_a.
  const fromB = crossMachinePicture('m_b', [{ state: theirs, commit: 'w2' }], [mine], 100)
  assert.deepEqual(
    fromB.rows.map((row) => [row.path, row.otherWorktree, row.conflicted]),
    [
      ['src/x.ts', 'm_a:/a/lane', true],
      ['src/y.ts', 'm_a:/a/lane', false],
    ],
  )
  assert.deepEqual(fromB.groups, [])
})

test('different bases collide on paths only; a missing remote worktree collides with nothing', () => {
  const mine = state('m_a', '/a/lane', baseOne, [{ path: 'src/x.ts', ranges: [[3, 4]] }])
  const rebased = state('m_b', '/b/lane', baseTwo, [{ path: 'src/x.ts', ranges: [[3, 4]] }])
  const gone = state('m_c', '/c/lane', baseOne, [{ path: 'src/x.ts', ranges: [[3, 4]] }], 'missing')
  const picture = crossMachinePicture('m_a', [{ state: mine, commit: 'w1' }], [rebased, gone], 100)
  assert.deepEqual(
    picture.rows.map((row) => [row.otherWorktree, row.conflicted]),
    [['m_b:/b/lane', false]],
  )
  assert.deepEqual(picture.groups, [])
})
