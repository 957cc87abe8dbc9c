import assert from 'node:assert/strict'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { findMainBranch, readHead } from './branch.ts'
import { commitsBetween, recentCommits } from './commit-log.ts'

test('HEAD: the branch and commit; detached has no branch; before the first commit, no commit', async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  assert.deepEqual(readHead(repo.path), { branch: 'main', commit: head })
  git(repo.path, 'checkout', '-q', '--detach')
  assert.deepEqual(readHead(repo.path), { branch: null, commit: head })
  await using empty = tmpGitRepo({ commit: false })
  assert.deepEqual(readHead(empty.path), { branch: 'main', commit: null })
})

test('the main branch: origin/HEAD when set (local branch preferred), else main, master or trunk', async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  assert.deepEqual(findMainBranch(repo.path), { name: 'main', commit: head, local: true })
  git(repo.path, 'branch', '-m', 'main', 'trunk')
  assert.deepEqual(findMainBranch(repo.path), { name: 'trunk', commit: head, local: true })
  git(repo.path, 'update-ref', 'refs/remotes/origin/develop', head)
  git(repo.path, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/develop')
  assert.deepEqual(findMainBranch(repo.path), { name: 'origin/develop', commit: head, local: false })
  git(repo.path, 'branch', 'develop')
  assert.deepEqual(findMainBranch(repo.path), { name: 'develop', commit: head, local: true })
  git(repo.path, 'branch', '-m', 'trunk', 'feature')
  git(repo.path, 'symbolic-ref', '--delete', 'refs/remotes/origin/HEAD')
  git(repo.path, 'branch', '-D', 'develop')
  assert.equal(findMainBranch(repo.path), null)
})

test('commit ranges: newest first with the total, and null when the start commit is gone', async () => {
  await using repo = tmpGitRepo()
  const start = git(repo.path, 'rev-parse', 'HEAD')
  for (let i = 1; i <= 4; i++) repo.commit(`change ${i}`)
  const between = commitsBetween(repo.path, start, 'HEAD', 2)
  assert.deepEqual(
    between?.commits.map((commit) => commit.subject),
    ['change 4', 'change 3'],
  )
  assert.equal(between?.total, 4)
  assert.equal(commitsBetween(repo.path, 'f'.repeat(40), 'HEAD', 2), null)
  assert.equal(recentCommits(repo.path, 'HEAD', 10).total, 5)
})
