import assert from 'node:assert/strict'
import { test } from 'node:test'
import { worktreeTargets } from './worktree-targets.ts'

test('a unique directory name is the target', () => {
  const targets = worktreeTargets(['/work/main', '/work/wt/lane-one'])
  assert.equal(targets.get('/work/main'), 'main')
  assert.equal(targets.get('/work/wt/lane-one'), 'lane-one')
})

test('two worktrees sharing a directory name get distinct targets from their parents, stable in any order', () => {
  const paths = ['/work/a/lane', '/work/b/lane', '/work/main']
  const targets = worktreeTargets(paths)
  assert.equal(targets.get('/work/a/lane'), 'a-lane')
  assert.equal(targets.get('/work/b/lane'), 'b-lane')
  assert.equal(targets.get('/work/main'), 'main')
  assert.deepEqual(worktreeTargets([...paths].reverse()), targets)
})

test('a disambiguated target never takes a name another worktree has', () => {
  const targets = worktreeTargets(['/x/a/lane', '/y/a/lane', '/z/a-lane'])
  assert.equal(targets.get('/z/a-lane'), 'a-lane')
  assert.equal(targets.get('/x/a/lane'), 'x-a-lane')
  assert.equal(targets.get('/y/a/lane'), 'y-a-lane')
  assert.equal(new Set(targets.values()).size, 3)
})
