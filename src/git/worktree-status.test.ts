import assert from 'node:assert/strict'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { gitCallLog } from '../../test/helpers/git-call-log.ts'
import { git, tmpRepoWith } from '../../test/helpers/tmp-git-repo.ts'
import { splitStatuses, worktreeChanges } from './worktree-changes.ts'
import { type WorktreeStatus, worktreeStatuses } from './worktree-status.ts'

/** Each worktree asked on its own, as before one `for-each-repo` asked them all: the reference. */
function oneByOne(
  paths: readonly string[],
): { path: string; uncommitted: number | null; head: string | null }[] {
  return paths.map((path) => {
    const changes = worktreeChanges(path)
    return { path, uncommitted: changes?.uncommitted.length ?? null, head: changes?.head ?? null }
  })
}

function withGitLog<T>(dir: string, fn: () => T): { result: T; calls: string[][] } {
  const saved = process.env.PATH
  const log = gitCallLog(dir)
  process.env.PATH = log.path
  try {
    return { result: fn(), calls: log.calls() }
  } finally {
    process.env.PATH = saved
  }
}

const counts = (statuses: readonly WorktreeStatus[]) =>
  statuses.map((status) => ({ path: status.path, uncommitted: status.uncommitted, missing: status.missing }))

test('one git for-each-repo answers every worktree as its own git status would, a rename of a header-like path included', async () => {
  // A file whose name is a status header, renamed: the one item that could cut the output in the wrong place.
  await using repo = tmpRepoWith({ 'a.txt': 'a\n', '# branch.oid x': 'tricky\n' })
  const outside = join(repo.path, '..')
  const lanes = ['one', 'two', 'three'].map((name) => join(outside, `lane-${name}`))
  for (const lane of lanes) git(repo.path, 'worktree', 'add', '-q', lane)
  writeFileSync(join(lanes[0] as string, 'new.txt'), 'untracked\n')
  mkdirSync(join(lanes[0] as string, 'dir'))
  writeFileSync(join(lanes[0] as string, 'dir', 'deep.txt'), 'untracked too\n')
  git(lanes[1] as string, 'mv', '# branch.oid x', 'renamed.txt')
  writeFileSync(join(lanes[1] as string, 'a.txt'), 'changed\n')
  rmSync(lanes[2] as string, { recursive: true, force: true })
  const paths = [repo.path, ...lanes]

  const { result, calls } = withGitLog(outside, () => worktreeStatuses(paths))
  assert.deepEqual(
    calls.map((args) => args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? ''),
    ['for-each-repo', 'log'],
    'one process for every status, one for the dates',
  )
  const expected = oneByOne(paths.slice(0, 3))
  assert.deepEqual(counts(result), [
    { path: repo.path, uncommitted: 0, missing: false },
    { path: lanes[0], uncommitted: expected[1]?.uncommitted, missing: false },
    { path: lanes[1], uncommitted: expected[2]?.uncommitted, missing: false },
    { path: lanes[2], uncommitted: null, missing: true },
  ])
  assert.deepEqual(
    expected.map((status) => status.uncommitted),
    [0, 2, 2],
    'two untracked files; the rename and the edit',
  )
  assert.ok(result.every((status) => status.missing || status.headCommittedAt !== null))
})

test('a worktree git cannot read, or a config that adds to the list, falls back to one status each with the same answers', async () => {
  await using repo = tmpRepoWith({ 'a.txt': 'a\n' })
  const outside = join(repo.path, '..')
  const lanes = ['one', 'two'].map((name) => join(outside, `lane-${name}`))
  for (const lane of lanes) git(repo.path, 'worktree', 'add', '-q', lane)
  writeFileSync(join(lanes[1] as string, 'new.txt'), 'untracked\n')
  const notARepo = join(outside, 'plain-folder')
  mkdirSync(notARepo)

  const broken = withGitLog(outside, () => worktreeStatuses([repo.path, notARepo, ...lanes]))
  assert.deepEqual(counts(broken.result), [
    { path: repo.path, uncommitted: 0, missing: false },
    { path: notARepo, uncommitted: null, missing: false },
    { path: lanes[0], uncommitted: 0, missing: false },
    { path: lanes[1], uncommitted: 1, missing: false },
  ])

  // The user's own config names a worktree under the same key: the outputs outnumber the paths.
  git(repo.path, 'config', '--add', 'sangam.statusworktree', lanes[1] as string)
  const extra = withGitLog(outside, () => worktreeStatuses([repo.path, ...lanes]))
  assert.deepEqual(
    counts(extra.result),
    counts(broken.result).filter((status) => status.path !== notARepo),
  )
  assert.equal(extra.calls.filter((args) => args.includes('status')).length, 1 + 3, 'asked again one by one')
})

test('splitStatuses cuts at each header and steps over the path a rename came from', () => {
  const one = '# branch.oid aaaa\0# branch.head main\0? new.txt\0'
  const two =
    '# branch.oid bbbb\0# branch.head lane\x002 R. N... 100644 100644 100644 x y renamed.txt\0# branch.oid x\0'
  assert.deepEqual(splitStatuses(one + two), [one, `${two}\0`])
  assert.deepEqual(splitStatuses(''), [])
})
