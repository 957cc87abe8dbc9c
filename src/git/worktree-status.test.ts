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

async function withGitLog<T>(dir: string, fn: () => Promise<T>): Promise<{ result: T; calls: string[][] }> {
  const saved = process.env.PATH
  const log = gitCallLog(dir)
  process.env.PATH = log.path
  try {
    const result = await fn()
    return { result, calls: log.calls() }
  } finally {
    process.env.PATH = saved
  }
}

const counts = (statuses: readonly WorktreeStatus[]) =>
  statuses.map((status) => ({ path: status.path, uncommitted: status.uncommitted, missing: status.missing }))

test('the statuses asked in turn answer every worktree as its own git status would, a rename of a header-like path included', async () => {
  // A file whose name is a status header, renamed: the one item that could cut the output in the wrong place.
  await using repo = tmpRepoWith({ 'a.txt': 'a\n', '# branch.oid x': 'tricky\n' })
  const outside = join(repo.path, '..')
  const lanes = ['one', 'two', 'three', 'four'].map((name) => join(outside, `lane-${name}`))
  for (const lane of lanes) git(repo.path, 'worktree', 'add', '-q', lane)
  writeFileSync(join(lanes[0] as string, 'new.txt'), 'untracked\n')
  mkdirSync(join(lanes[0] as string, 'dir'))
  writeFileSync(join(lanes[0] as string, 'dir', 'deep.txt'), 'untracked too\n')
  git(lanes[1] as string, 'mv', '# branch.oid x', 'renamed.txt')
  writeFileSync(join(lanes[1] as string, 'a.txt'), 'changed\n')
  rmSync(lanes[3] as string, { recursive: true, force: true })
  const paths = [repo.path, ...lanes]

  const { result, calls } = await withGitLog(outside, () => worktreeStatuses(paths))
  assert.equal(
    calls.filter((args) => args[0] === '-C' && args[2] === 'status').length,
    4,
    'one status per worktree present, each in its own worktree',
  )
  const expected = oneByOne(paths.slice(0, 4))
  assert.deepEqual(counts(result), [
    { path: repo.path, uncommitted: 0, missing: false },
    { path: lanes[0], uncommitted: expected[1]?.uncommitted, missing: false },
    { path: lanes[1], uncommitted: expected[2]?.uncommitted, missing: false },
    { path: lanes[2], uncommitted: 0, missing: false },
    { path: lanes[3], uncommitted: null, missing: true },
  ])
  assert.deepEqual(
    expected.map((status) => status.uncommitted),
    [0, 2, 2, 0],
    'two untracked files; the rename and the edit',
  )
  assert.ok(result.every((status) => status.missing || status.headCommittedAt !== null))
})

test('a worktree git cannot read falls back to one status each, with the same answers', async () => {
  await using repo = tmpRepoWith({ 'a.txt': 'a\n' })
  const outside = join(repo.path, '..')
  const lanes = ['one', 'two'].map((name) => join(outside, `lane-${name}`))
  for (const lane of lanes) git(repo.path, 'worktree', 'add', '-q', lane)
  writeFileSync(join(lanes[1] as string, 'new.txt'), 'untracked\n')
  const notARepo = join(outside, 'plain-folder')
  mkdirSync(notARepo)

  const broken = await withGitLog(outside, () => worktreeStatuses([repo.path, notARepo, ...lanes]))
  assert.deepEqual(counts(broken.result), [
    { path: repo.path, uncommitted: 0, missing: false },
    { path: notARepo, uncommitted: null, missing: false },
    { path: lanes[0], uncommitted: 0, missing: false },
    { path: lanes[1], uncommitted: 1, missing: false },
  ])

  assert.ok(
    broken.calls.some((args) => args[0] !== '-C' && args.includes('status')),
    'asked again one by one',
  )
})

test('splitStatuses cuts at each header and steps over the path a rename came from', () => {
  const one = '# branch.oid aaaa\0# branch.head main\0? new.txt\0'
  const two =
    '# branch.oid bbbb\0# branch.head lane\x002 R. N... 100644 100644 100644 x y renamed.txt\0# branch.oid x\0'
  assert.deepEqual(splitStatuses(one + two), [one, `${two}\0`])
  assert.deepEqual(splitStatuses(''), [])
})
