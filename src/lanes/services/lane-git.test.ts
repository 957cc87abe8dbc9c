import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { git, tmpDir, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import {
  headOf,
  mergeBase,
  refCommit,
  snapshotCommit,
  unsafeGitState,
  worktreeOfBranch,
  worktreeState,
  writeRefs,
} from './lane-git.ts'

/** The answers a sync reads without asking git, or from one git call, agree with git's own. */

test('worktreeState answers HEAD and dirtiness from one status: untracked counts, ignored does not', async () => {
  await using repo = tmpGitRepo()
  repo.write('.gitignore', 'ignored.log\n')
  repo.write('a.txt', 'one\n')
  const head = repo.commit('base')
  assert.deepEqual(worktreeState(repo.path), { head, dirty: false, own: [] })
  repo.write('ignored.log', 'noise\n')
  assert.deepEqual(worktreeState(repo.path), { head, dirty: false, own: [] })
  repo.write('new/untracked.txt', 'new\n')
  assert.deepEqual(worktreeState(repo.path), { head, dirty: true, own: [] })
  git(repo.path, 'clean', '-fdq')
  repo.write('a.txt', 'two\n')
  assert.deepEqual(worktreeState(repo.path), { head, dirty: true, own: [] })
})

test("a snapshot commits the work but sangam's own files on HEAD without moving a ref; HEAD moves with the refs kept beside it", async () => {
  await using repo = tmpGitRepo()
  repo.write('a.txt', 'one\n')
  const head = repo.commit('base')
  repo.write('a.txt', 'two\n')
  repo.write('new.txt', 'new\n')
  repo.write('.sangam/tasks/t.md', 'a task file\n')
  const state = worktreeState(repo.path)
  assert.deepEqual(state, { head, dirty: true, own: ['.sangam/tasks/t.md'] })
  const snapshot = snapshotCommit(repo.path, head, 'sangam snapshot: a', state.own)
  assert.equal(headOf(repo.path), head, 'no ref moved yet')
  assert.equal(git(repo.path, 'rev-parse', `${snapshot}^`), head)
  assert.equal(git(repo.path, 'log', '-1', '--format=%s', snapshot), 'sangam snapshot: a')
  assert.deepEqual(git(repo.path, 'ls-tree', '-r', '--name-only', snapshot).split('\n'), [
    'README.md',
    'a.txt',
    'new.txt',
  ])
  // A HEAD that moved meanwhile is not moved over: the expected value guards the transaction.
  assert.throws(() =>
    writeRefs(repo.path, [
      ['HEAD', snapshot, snapshot],
      ['refs/sangam/snapshots/a', snapshot],
    ]),
  )
  assert.equal(refCommit(repo.path, 'refs/sangam/snapshots/a'), null, 'nor the ref beside it')
  writeRefs(
    repo.path,
    [
      ['HEAD', snapshot, head],
      ['refs/sangam/snapshots/a', snapshot],
    ],
    'sangam snapshot: a',
  )
  assert.equal(headOf(repo.path), snapshot)
  assert.equal(
    git(repo.path, 'symbolic-ref', 'HEAD'),
    'refs/heads/main',
    'the branch moved, HEAD still names it',
  )
  assert.equal(git(repo.path, 'rev-parse', 'refs/sangam/snapshots/a'), snapshot)
  assert.match(git(repo.path, 'reflog', '-1', '--format=%gs', 'main'), /sangam snapshot: a/)
  // Only sangam's own file is left uncommitted.
  assert.deepEqual(worktreeState(repo.path), { head: snapshot, dirty: false, own: ['.sangam/tasks/t.md'] })
})

test('worktreeOfBranch and unsafeGitState read the layout as git worktree list and rev-parse would', async () => {
  await using repo = tmpGitRepo()
  await using home = tmpDir()
  repo.write('a.txt', 'one\n')
  repo.commit('base')
  const lane = join(realpathSync(home.path), 'lane-a')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane/a', lane, 'main')
  const root = realpathSync(repo.path)
  for (const cwd of [root, lane]) {
    assert.equal(worktreeOfBranch(cwd, 'main'), root)
    assert.equal(worktreeOfBranch(cwd, 'lane/a'), lane)
    assert.equal(worktreeOfBranch(cwd, 'nowhere'), null)
  }
  assert.equal(unsafeGitState(lane), null)
  repo.write('a.txt', 'main side\n')
  repo.commit('main side')
  git(lane, 'checkout', '-q', '-b', 'lane/b')
  // Only the file system was read: a branch switch shows at once.
  assert.equal(worktreeOfBranch(root, 'lane/a'), null)
  assert.equal(worktreeOfBranch(root, 'lane/b'), lane)
  writeFileSync(join(lane, 'a.txt'), 'lane side\n')
  git(lane, 'commit', '-qam', 'lane side')
  const merged = spawnSync('git', ['merge', '-q', 'main'], { cwd: lane, encoding: 'utf8' })
  assert.notEqual(merged.status, 0, 'the merge conflicts')
  assert.equal(unsafeGitState(lane), 'MERGE_HEAD')
  assert.equal(unsafeGitState(root), null)
})

test('mergeBase is the ancestor itself when one side contains the other', async () => {
  await using repo = tmpGitRepo()
  repo.write('a.txt', 'one\n')
  const first = repo.commit('first')
  repo.write('a.txt', 'two\n')
  const second = repo.commit('second')
  assert.equal(mergeBase(repo.path, first, second), first)
  assert.equal(mergeBase(repo.path, second, first), first)
  assert.equal(mergeBase(repo.path, second, second), second)
})
