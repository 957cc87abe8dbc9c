import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import {
  applyWorktreeState,
  readMachineWorktreeStates,
  readWorktreePlaces,
  readWorktreeState,
  type WorktreeStateRow,
} from './worktree-state-table.ts'

const state = (updatedAt: number, change: number, uncommitted: number): WorktreeStateRow => ({
  machine: 'm_b',
  path: '/work/lane',
  status: 'present',
  target: 'lane',
  branch: 'lane',
  head: 'a'.repeat(40),
  base: 'b'.repeat(40),
  lastCommitAt: 5,
  uncommitted,
  changes: [{ path: 'src/a.ts', ranges: [[3, 4]] }],
  truncated: false,
  updatedAt,
  change,
  digest: '',
})

test('the newest state per machine and path wins, whatever order the records come in', () => {
  const db = openDatabaseFile(join(tmpDir().path, 'sangam.db'))
  assert.equal(applyWorktreeState(db, state(20, 2, 2)), true)
  assert.equal(applyWorktreeState(db, state(10, 1, 1)), false, 'an older state changes nothing')
  assert.equal(applyWorktreeState(db, state(20, 2, 2)), false, 'the same record twice changes nothing')
  assert.equal(applyWorktreeState(db, state(20, 3, 3)), true, 'same time: the higher change wins')
  const row = readWorktreeState(db, 'm_b', '/work/lane')
  assert.equal(row?.uncommitted, 3)
  assert.deepEqual(row?.changes, [{ path: 'src/a.ts', ranges: [[3, 4]] }])
  assert.equal(readMachineWorktreeStates(db, 'm_a').length, 0)
  db.close()
})

test('the places of the worktrees come without their change lists', () => {
  const db = openDatabaseFile(join(tmpDir().path, 'sangam.db'))
  applyWorktreeState(db, state(20, 2, 7))
  assert.deepEqual(readWorktreePlaces(db), [
    {
      machine: 'm_b',
      path: '/work/lane',
      status: 'present',
      target: 'lane',
      branch: 'lane',
      lastCommitAt: 5,
      uncommitted: 7,
    },
  ])
  db.close()
})
