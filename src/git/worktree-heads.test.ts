import assert from 'node:assert/strict'
import { mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { worktreeHeads } from './worktree-heads.ts'

function repoWithLane(extra: string[]) {
  const repo = tmpGitRepo()
  const lane = join(realpathSync(join(repo.path, '..')), 'lane')
  git(repo.path, 'worktree', 'add', '-q', ...extra, lane)
  const head = git(repo.path, 'rev-parse', 'HEAD')
  const find = () => worktreeHeads(repo.path).find((entry) => entry.path === lane)
  return { repo, lane, head, find }
}

test('worktree heads: the main worktree and a linked one on its branch, in git order', async () => {
  const { repo, lane, head } = repoWithLane(['-b', 'lane'])
  await using _ = repo
  assert.deepEqual(worktreeHeads(lane), [
    { path: repo.path, head, branch: 'main', missing: false, bare: false },
    { path: lane, head, branch: 'lane', missing: false, bare: false },
  ])
})

test('worktree heads: a detached HEAD has its commit and no branch', async () => {
  const { repo, lane, head, find } = repoWithLane(['--detach'])
  await using _ = repo
  assert.deepEqual(find(), { path: lane, head, branch: null, missing: false, bare: false })
})

test('worktree heads: a worktree deleted from disk is listed missing', async () => {
  const { repo, lane, head, find } = repoWithLane(['-b', 'gone'])
  await using _ = repo
  rmSync(lane, { recursive: true, force: true })
  assert.deepEqual(find(), { path: lane, head, branch: 'gone', missing: true, bare: false })
})

test('worktree heads: a branch deleted from under its worktree has no commit, its name kept', async () => {
  const { repo, lane, find } = repoWithLane(['-b', 'doomed'])
  await using _ = repo
  git(repo.path, 'update-ref', '-d', 'refs/heads/doomed')
  assert.deepEqual(find(), { path: lane, head: null, branch: 'doomed', missing: false, bare: false })
})

test('worktree heads: a worktree added through a symlinked path is listed by its real path', async () => {
  await using repo = tmpGitRepo()
  const outside = realpathSync(join(repo.path, '..'))
  mkdirSync(join(outside, 'real'))
  symlinkSync(join(outside, 'real'), join(outside, 'link'))
  git(repo.path, 'worktree', 'add', '-q', '-b', 'via-link', join(outside, 'link', 'lane'))
  const paths = worktreeHeads(repo.path).map((entry) => entry.path)
  assert.deepEqual(paths, [repo.path, join(outside, 'real', 'lane')])
})
