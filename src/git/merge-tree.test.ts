import assert from 'node:assert/strict'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { type MergeResult, mergeTrees } from './merge-tree.ts'
import { touchedPaths } from './touched-paths.ts'

test('merge results: conflicted paths with spaces and newlines, clean pairs, and unrelated histories', async () => {
  await using repo = tmpGitRepo()
  repo.write('odd name\nwith newline.txt', 'a\n')
  repo.write('plain.txt', 'a\n')
  const base = repo.commit('base')
  git(repo.path, 'checkout', '-q', '-b', 'x')
  repo.write('odd name\nwith newline.txt', 'x\n')
  repo.write('plain.txt', 'x\n')
  repo.write('only-x.txt', 'x\n')
  const x = repo.commit('x')
  git(repo.path, 'checkout', '-q', '-b', 'y', base)
  repo.write('odd name\nwith newline.txt', 'y\n')
  repo.write('plain.txt', 'y\n')
  const y = repo.commit('y')
  git(repo.path, 'checkout', '-q', '--orphan', 'lone')
  git(repo.path, 'rm', '-q', '-rf', '.')
  repo.write('z.txt', 'z\n')
  const lone = repo.commit('lone')
  git(repo.path, 'checkout', '-q', 'main')

  const conflicts = ['odd name\nwith newline.txt', 'plain.txt']
  assert.deepEqual(
    (
      await mergeTrees(repo.path, [
        [x, y],
        [base, x],
      ])
    ).map(treeWritten),
    [
      { clean: false, conflicts, error: null },
      { clean: true, conflicts: [], error: null },
    ],
  )
  // An unrelated pair fails the batch; each pair is then merged alone and only it is an error.
  const [a, b, c] = await mergeTrees(repo.path, [
    [x, y],
    [x, lone],
    [base, y],
  ])
  assert.deepEqual(treeWritten(a), { clean: false, conflicts, error: null })
  assert.equal(b?.clean, false)
  assert.equal(b?.tree, null)
  assert.match(b?.error ?? '', /unrelated histories/)
  assert.deepEqual(treeWritten(c), { clean: true, conflicts: [], error: null })
  assert.deepEqual(await mergeTrees(repo.path, []), [])

  assert.deepEqual(await touchedPaths(repo.path, y, x), [
    'odd name\nwith newline.txt',
    'only-x.txt',
    'plain.txt',
  ])
  assert.deepEqual(await touchedPaths(repo.path, x, base), [])
  assert.equal(await touchedPaths(repo.path, x, lone), null)
})

/** The result without its tree, once the tree is seen to be one git wrote. */
function treeWritten(result: MergeResult | undefined): Omit<MergeResult, 'tree'> {
  assert.ok(result !== undefined)
  const { tree, ...rest } = result
  assert.match(tree ?? '', /^[0-9a-f]{40,64}$/)
  return rest
}
