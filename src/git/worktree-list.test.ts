import assert from 'node:assert/strict'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { findGitLayout, worktreeRoots } from './git-layout.ts'
import { openRepository } from './repository.ts'

/** What git itself lists: the reference both of our paths must agree with. */
function gitWorktreeList(cwd: string): string[] {
  return git(cwd, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
}

test('the hooks and openRepository list the same worktrees, in the order git does', async () => {
  await using repo = tmpGitRepo()
  const outside = join(repo.path, '..')
  // Names (one, two, alpha) sort differently from paths (a/two, b/one, c/alpha).
  for (const path of ['b/one', 'a/two', 'c/alpha']) {
    mkdirSync(join(outside, path, '..'), { recursive: true })
    git(repo.path, 'worktree', 'add', '-q', join(outside, path))
  }
  rmSync(join(outside, 'c/alpha'), { recursive: true, force: true }) // gone, not pruned: still listed
  const expected = gitWorktreeList(repo.path)
  assert.equal(expected.length, 4)
  for (const cwd of [repo.path, join(outside, 'a/two')]) {
    const layout = findGitLayout(cwd)
    assert.ok(layout !== null)
    assert.deepEqual(worktreeRoots(layout), expected, `hook path from ${cwd}`)
    assert.deepEqual(openRepository(cwd).worktrees, expected, `openRepository from ${cwd}`)
  }
})
