import assert from 'node:assert/strict'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { rangesCollide } from '../room/core/cross-machine-overlap.ts'
import { baseChanges } from './base-changes.ts'
import { mergeTrees } from './merge-tree.ts'

const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => `line ${i + 1}`)
const file = (edit: (all: string[]) => void): string => {
  const all = lines(20)
  edit(all)
  return `${all.join('\n')}\n`
}

test('base ranges of changed, inserted, binary and odd-named paths since the merge base', async () => {
  await using repo = tmpGitRepo()
  repo.write(
    'a.txt',
    file(() => {}),
  )
  repo.write('bin.dat', 'x\0y')
  const base = repo.commit('base')
  git(repo.path, 'checkout', '-q', '-b', 'lane')
  repo.write(
    'a.txt',
    file((all) => all.splice(2, 2, 'three', 'four')),
  )
  const head = repo.commit('lane work')
  // Uncommitted on top, as the working-state commit would carry it: an insertion after line 10.
  repo.write(
    'a.txt',
    file((all) => all.splice(2, 2, 'three', 'four') && all.splice(10, 0, 'new')),
  )
  repo.write('bin.dat', 'x\0z')
  repo.write('odd name\nnew.txt', 'n\n')
  git(repo.path, 'add', '-A')
  git(repo.path, 'commit', '-q', '-m', 'working state')
  const commit = git(repo.path, 'rev-parse', 'HEAD')
  git(repo.path, 'checkout', '-q', 'main')
  repo.write('main-only.txt', 'm\n')
  repo.commit('main moves on')

  const found = await baseChanges(repo.path, 'main', head, commit, 50)
  assert.equal(found?.base, base)
  assert.equal(typeof found?.lastCommitAt, 'number')
  assert.deepEqual(found?.changes, [
    {
      path: 'a.txt',
      ranges: [
        [3, 4],
        [10, 10],
      ],
    },
    { path: 'bin.dat', ranges: null },
    { path: 'odd name\nnew.txt', ranges: [[0, 0]] },
  ])
  const capped = await baseChanges(repo.path, 'main', head, commit, 1)
  assert.equal(capped?.changes[0]?.ranges, null, 'more hunks than the cap: the whole file')
})

test('the prediction from base ranges agrees with git merge on overlapping, adjacent and separate edits', async () => {
  await using repo = tmpGitRepo()
  repo.write(
    'f.txt',
    file(() => {}),
  )
  repo.commit('base')
  const branch = (name: string, edit: (all: string[]) => void): string => {
    git(repo.path, 'checkout', '-q', '-b', name, 'main')
    repo.write('f.txt', file(edit))
    const commit = repo.commit(name)
    git(repo.path, 'checkout', '-q', 'main')
    return commit
  }
  const mine = branch('mine', (all) => all.splice(4, 2, 'five', 'six'))
  const cases = {
    overlapping: branch('overlapping', (all) => all.splice(5, 1, 'SIX')),
    adjacent: branch('adjacent', (all) => all.splice(6, 1, 'SEVEN')),
    separate: branch('separate', (all) => all.splice(8, 1, 'NINE')),
    inserted: branch('inserted', (all) => all.splice(6, 0, 'after six')),
  }
  const ranges = async (commit: string) =>
    (await baseChanges(repo.path, 'main', commit, commit, 50))?.changes[0]?.ranges ?? null
  const myRanges = await ranges(mine)
  for (const [name, theirs] of Object.entries(cases)) {
    const [merged] = await mergeTrees(repo.path, [[mine, theirs]])
    assert.equal(rangesCollide(myRanges, await ranges(theirs)), merged?.clean === false, name)
  }
})
