import assert from 'node:assert/strict'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { isSangamError } from '../../shared/sangam-error.ts'
import { repositoryPaths, resolvePatternArgument } from './path.ts'

test('an absolute path inside the repository becomes repository-relative; outside, it has no path', async () => {
  await using repo = tmpGitRepo()
  repo.write('src/a.ts', '')
  const worktrees = [repo.path]
  assert.deepEqual(repositoryPaths(join(repo.path, 'src/a.ts'), '/', worktrees), ['src/a.ts'])
  assert.deepEqual(repositoryPaths(join(repo.path, 'src/new/b.ts'), '/', worktrees), ['src/new/b.ts'])
  assert.deepEqual(repositoryPaths('/etc/hosts', repo.path, worktrees), [])
  assert.deepEqual(repositoryPaths(join(repo.path, '..', 'sibling', 'a.ts'), repo.path, worktrees), [])
  assert.deepEqual(
    repositoryPaths(`${repo.path}-other/a.ts`, repo.path, worktrees),
    [],
    'a prefix is not a parent',
  )
  assert.deepEqual(repositoryPaths(repo.path, repo.path, worktrees), [], 'the root itself is not a file')
})

test('.. is resolved, and relative paths are taken from the cwd', async () => {
  await using repo = tmpGitRepo()
  repo.write('src/a.ts', '')
  const worktrees = [repo.path]
  assert.deepEqual(repositoryPaths(join(repo.path, 'lib/../src/./a.ts'), '/', worktrees), ['src/a.ts'])
  assert.deepEqual(repositoryPaths('../src/a.ts', join(repo.path, 'lib'), worktrees), ['src/a.ts'])
  assert.deepEqual(repositoryPaths(join(repo.path, 'src/../../x.ts'), '/', worktrees), [])
})

test('a symlink is the file it points to, and its own path too; a link leading outside is outside', async () => {
  await using repo = tmpGitRepo()
  repo.write('src/real.ts', '')
  symlinkSync(join(repo.path, 'src/real.ts'), join(repo.path, 'link.ts'))
  symlinkSync(join(repo.path, 'src'), join(repo.path, 'alias'))
  symlinkSync('/etc/hosts', join(repo.path, 'hosts'))
  const worktrees = [repo.path]
  assert.deepEqual(repositoryPaths(join(repo.path, 'link.ts'), '/', worktrees), ['src/real.ts', 'link.ts'])
  assert.deepEqual(repositoryPaths(join(repo.path, 'alias/new.ts'), '/', worktrees), [
    'src/new.ts',
    'alias/new.ts',
  ])
  assert.deepEqual(
    repositoryPaths(join(repo.path, 'hosts'), '/', worktrees),
    ['hosts'],
    'the link itself is in the repo',
  )
  const viaSymlinkedRoot = join(repo.path, '..', 'repo-link')
  symlinkSync(repo.path, viaSymlinkedRoot)
  assert.deepEqual(repositoryPaths(join(viaSymlinkedRoot, 'src/real.ts'), '/', worktrees), ['src/real.ts'])
})

test('a linked worktree inside the main one decides for its own files', async () => {
  await using repo = tmpGitRepo()
  const inner = join(repo.path, '.worktrees', 'lane')
  git(repo.path, 'worktree', 'add', '-q', inner, '-b', 'lane')
  const worktrees = [repo.path, inner]
  assert.deepEqual(repositoryPaths(join(inner, 'src/a.ts'), '/', worktrees), ['src/a.ts'])
  assert.deepEqual(repositoryPaths(join(repo.path, 'src/a.ts'), '/', worktrees), ['src/a.ts'])
})

test('case is kept in the path; comparisons fold it later', async () => {
  await using repo = tmpGitRepo()
  assert.deepEqual(repositoryPaths(join(repo.path, 'SRC/A.ts'), '/', [repo.path]), ['SRC/A.ts'])
})

test('typed patterns are taken from the cwd, and a directory means everything below it', async () => {
  await using repo = tmpGitRepo()
  mkdirSync(join(repo.path, 'src/auth'), { recursive: true })
  const worktrees = [repo.path]
  const src = join(repo.path, 'src')
  assert.equal(resolvePatternArgument('auth/*.ts', src, worktrees), 'src/auth/*.ts')
  assert.equal(resolvePatternArgument('auth', src, worktrees), 'src/auth/**')
  assert.equal(resolvePatternArgument('auth/login.ts', src, worktrees), 'src/auth/login.ts')
  assert.equal(resolvePatternArgument('../docs/**', src, worktrees), 'docs/**')
  assert.equal(resolvePatternArgument('.', src, worktrees), 'src/**')
  assert.equal(resolvePatternArgument(join(repo.path, 'src/a.ts'), '/tmp', worktrees), 'src/a.ts')
  assert.equal(resolvePatternArgument('src/**', repo.path, worktrees), 'src/**')
})

test('a typed pattern outside the project is refused', async () => {
  await using repo = tmpGitRepo()
  const worktrees = [repo.path]
  for (const [raw, cwd] of [
    ['../x.ts', repo.path],
    ['/etc/hosts', repo.path],
    ['src/a.ts', '/tmp'],
  ] as const) {
    assert.throws(
      () => resolvePatternArgument(raw, cwd, worktrees),
      (error: unknown) => isSangamError(error) && error.code === 'INVALID_INPUT',
      `${raw} from ${cwd}`,
    )
  }
})
