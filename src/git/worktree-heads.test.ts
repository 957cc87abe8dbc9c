import assert from 'node:assert/strict'
import { realpathSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { worktreeHeads } from './worktree-heads.ts'

test('worktree heads: a branch, a detached HEAD, a deleted directory, a branch deleted from under its worktree', async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  const outside = realpathSync(join(repo.path, '..'))
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane', join(outside, 'lane'))
  git(repo.path, 'worktree', 'add', '-q', '--detach', join(outside, 'detached'))
  git(repo.path, 'worktree', 'add', '-q', '-b', 'gone', join(outside, 'gone'))
  git(repo.path, 'worktree', 'add', '-q', '-b', 'doomed', join(outside, 'orphaned'))
  rmSync(join(outside, 'gone'), { recursive: true, force: true })
  git(repo.path, 'update-ref', '-d', 'refs/heads/doomed')
  const byPath = new Map(worktreeHeads(join(outside, 'lane')).map((entry) => [entry.path, entry]))
  assert.deepEqual(byPath.get(repo.path), {
    path: repo.path,
    head,
    branch: 'main',
    missing: false,
    bare: false,
  })
  assert.deepEqual(byPath.get(join(outside, 'lane')), {
    path: join(outside, 'lane'),
    head,
    branch: 'lane',
    missing: false,
    bare: false,
  })
  assert.equal(byPath.get(join(outside, 'detached'))?.branch, null)
  assert.equal(byPath.get(join(outside, 'detached'))?.head, head)
  assert.equal(byPath.get(join(outside, 'gone'))?.missing, true)
  assert.deepEqual(byPath.get(join(outside, 'orphaned')), {
    path: join(outside, 'orphaned'),
    head: null,
    branch: 'doomed',
    missing: false,
    bare: false,
  })
  assert.equal(byPath.size, 5)
})
