import assert from 'node:assert/strict'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { projectPaths } from './project-path.ts'

test('absolute and cwd-relative paths become repository-relative; .. is resolved', async () => {
  await using dir = tmpDir()
  const root = join(dir.path, 'repo')
  mkdirSync(join(root, 'src'), { recursive: true })
  assert.deepEqual(projectPaths(join(root, 'src', 'a.ts'), root, [root]), ['src/a.ts'])
  assert.deepEqual(projectPaths('a.ts', join(root, 'src'), [root]), ['src/a.ts'])
  assert.deepEqual(projectPaths('src/../src/./a.ts', root, [root]), ['src/a.ts'])
  assert.deepEqual(projectPaths('new/dir/file.ts', root, [root]), ['new/dir/file.ts'])
})

test('a path outside every worktree, or one that climbs out with .., is outside the project', async () => {
  await using dir = tmpDir()
  const root = join(dir.path, 'repo')
  mkdirSync(root)
  assert.deepEqual(projectPaths('/etc/hosts', root, [root]), [])
  assert.deepEqual(projectPaths('../elsewhere.ts', root, [root]), [])
  assert.deepEqual(projectPaths(`${root}-sibling/a.ts`, root, [root]), [])
  assert.deepEqual(projectPaths(root, root, [root]), [])
})

test('a symlink to a file in the project maps to both the link and its target', async () => {
  await using dir = tmpDir()
  const root = join(dir.path, 'repo')
  mkdirSync(join(root, 'src'), { recursive: true })
  writeFileSync(join(root, 'src', 'a.ts'), '')
  symlinkSync('a.ts', join(root, 'src', 'link.ts'))
  symlinkSync(join(root, 'src'), join(root, 'alias'))
  assert.deepEqual(projectPaths('src/link.ts', root, [root]), ['src/a.ts', 'src/link.ts'])
  assert.deepEqual(projectPaths('alias/new.ts', root, [root]), ['src/new.ts', 'alias/new.ts'])
})

test('a symlink leading out of the project keeps only its in-project path', async () => {
  await using dir = tmpDir()
  const root = join(dir.path, 'repo')
  mkdirSync(root)
  writeFileSync(join(dir.path, 'outside.ts'), '')
  symlinkSync(join(dir.path, 'outside.ts'), join(root, 'out.ts'))
  assert.deepEqual(projectPaths('out.ts', root, [root]), ['out.ts'])
})

test('on a case-sensitive file system a case-only difference is another file', async () => {
  await using dir = tmpDir()
  const root = join(dir.path, 'repo')
  mkdirSync(join(root, 'src'), { recursive: true })
  writeFileSync(join(root, 'src', 'a.ts'), '')
  assert.deepEqual(projectPaths('SRC/A.ts', root, [root]), ['SRC/A.ts'])
})

test('the deepest worktree containing the path decides, for worktrees nested in the main one', async () => {
  await using dir = tmpDir()
  const root = join(dir.path, 'repo')
  const nested = join(root, '.worktrees', 'lane')
  mkdirSync(join(nested, 'src'), { recursive: true })
  assert.deepEqual(projectPaths(join(nested, 'src', 'a.ts'), root, [root, nested]), ['src/a.ts'])
})
