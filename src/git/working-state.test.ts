import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { gitCallLog } from '../../test/helpers/git-call-log.ts'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { type MergeResult, mergeTrees } from './merge-tree.ts'
import { type WorkingState, type WorkingStateMemo, workingState, workingStates } from './working-state.ts'

test('the working state is a commit over HEAD; the worktree, its index and refs are untouched', async () => {
  await using repo = tmpGitRepo()
  repo.write('a.txt', 'one\ntwo\nthree\n')
  repo.write('.gitignore', 'ignored.log\n')
  repo.write('gone.txt', 'bye\n')
  const head = repo.commit('base')
  repo.write('a.txt', 'one\nTWO\nthree\n') // modified, unstaged
  repo.write('staged.txt', 'staged\n')
  git(repo.path, 'add', 'staged.txt') // staged
  repo.write('new dir/untracked.txt', 'new\n') // untracked
  repo.write('ignored.log', 'noise\n') // ignored
  git(repo.path, 'rm', '-q', '--cached', 'gone.txt') // staged deletion, file kept on disk…
  writeFileSync(join(repo.path, 'gone.txt'), 'bye\n')
  const before = {
    status: git(repo.path, 'status', '--porcelain=v2', '-z', '--untracked-files=all'),
    index: readFileSync(join(repo.path, '.git', 'index')),
    refs: git(repo.path, 'for-each-ref'),
    head: git(repo.path, 'rev-parse', 'HEAD'),
  }
  const state = await workingState(repo.path, head)
  assert.notEqual(state.commit, head)
  assert.deepEqual([...state.uncommitted].sort(), ['a.txt', 'new dir/untracked.txt', 'staged.txt'])
  assert.equal(git(repo.path, 'rev-parse', `${state.commit}^`), head)
  assert.equal(git(repo.path, 'show', `${state.commit}:a.txt`), 'one\nTWO\nthree')
  assert.equal(git(repo.path, 'show', `${state.commit}:new dir/untracked.txt`), 'new')
  assert.throws(() => git(repo.path, 'show', `${state.commit}:ignored.log`))
  assert.equal(git(repo.path, 'status', '--porcelain=v2', '-z', '--untracked-files=all'), before.status)
  assert.deepEqual(readFileSync(join(repo.path, '.git', 'index')), before.index)
  assert.equal(git(repo.path, 'for-each-ref'), before.refs)
  assert.equal(git(repo.path, 'rev-parse', 'HEAD'), before.head)
  // The same state is the same commit (fixed identity and date), so memoised merges still apply.
  assert.equal((await workingState(repo.path, head)).commit, state.commit)
})

test('a clean worktree is its HEAD', async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  assert.deepEqual(await workingState(repo.path, head), { commit: head, uncommitted: [] })
})

test('two worktrees editing the same lines, uncommitted, conflict before either commits', async () => {
  await using repo = tmpGitRepo()
  repo.write('shared.ts', 'export const a = 1\nexport const b = 2\n')
  repo.write('other.ts', 'x\n')
  const base = repo.commit('base')
  const one = join(repo.path, '..', 'one')
  const two = join(repo.path, '..', 'two')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'one', one)
  git(repo.path, 'worktree', 'add', '-q', '-b', 'two', two)
  writeFileSync(join(one, 'shared.ts'), 'export const a = 10\nexport const b = 2\n')
  writeFileSync(join(two, 'shared.ts'), 'export const a = 20\nexport const b = 2\n')
  writeFileSync(join(two, 'other.ts'), 'y\n')
  const a = await workingState(one, base)
  const b = await workingState(two, base)
  const [pair, intoMain, unrelated] = await mergeTrees(repo.path, [
    [a.commit, b.commit],
    [base, a.commit],
    [a.commit, a.commit],
  ])
  assert.deepEqual(withoutTree(pair), { clean: false, conflicts: ['shared.ts'], error: null })
  assert.deepEqual(withoutTree(intoMain), { clean: true, conflicts: [], error: null })
  assert.deepEqual(withoutTree(unrelated), { clean: true, conflicts: [], error: null })
})

test('a same-size edit whose stat matches the index entry is still seen (the copy keeps the racy check)', async () => {
  await using repo = tmpGitRepo()
  const file = join(repo.path, 'same.txt')
  const past = new Date(Date.now() - 10_000)
  writeFileSync(file, 'aaaa\n')
  utimesSync(file, past, past)
  git(repo.path, 'add', 'same.txt')
  const head = repo.commit('same')
  writeFileSync(file, 'bbbb\n') // same size
  utimesSync(file, past, past) // same mtime as the index entry
  // The index written in that same second: git must treat the entry as racy and re-read the file.
  utimesSync(join(repo.path, '.git', 'index'), past, past)
  const state = await workingState(repo.path, head)
  assert.deepEqual(state.uncommitted, ['same.txt'])
  assert.equal(git(repo.path, 'show', `${state.commit}:same.txt`), 'bbbb')
})

test('working states of several worktrees at once, clean and dirty, in the order asked', async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  const lanes = ['a', 'b', 'c'].map((name) => {
    const path = join(repo.path, '..', name)
    git(repo.path, 'worktree', 'add', '-q', '-b', name, path)
    return path
  })
  writeFileSync(join(lanes[0] as string, 'new.txt'), 'a\n')
  writeFileSync(join(lanes[2] as string, 'README.md'), 'changed\n')
  const states = await workingStates(
    repo.path,
    lanes.map((path) => ({ path, head })),
    2,
  )
  assert.deepEqual(
    states.map((state) => [state?.commit === head, state?.uncommitted]),
    [
      [false, ['new.txt']],
      [true, []],
      [false, ['README.md']],
    ],
  )
})

test('a worktree deleted while its state is read is null; the others are still read', async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  const states = await workingStates(
    repo.path,
    [
      { path: join(repo.path, '..', 'deleted-meanwhile'), head },
      { path: repo.path, head },
    ],
    2,
  )
  assert.deepEqual(states, [null, { commit: head, uncommitted: [] }])
})

test("sangam's own files are left out of the working state; a user's own entry in one is work", async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  const handler = { type: 'command', command: 'node', args: ['/opt/sangam/dist/hooks/agent-hook-main.cjs'] }
  repo.write('.claude/settings.json', JSON.stringify({ hooks: { Stop: [{ hooks: [handler] }] } }))
  repo.write('.mcp.json', JSON.stringify({ mcpServers: { sangam: { command: 'sangam-mcp', args: [] } } }))
  assert.deepEqual(await workingState(repo.path, head), { commit: head, uncommitted: [] })
  repo.write('a.txt', 'work\n')
  const state = await workingState(repo.path, head)
  assert.deepEqual(state.uncommitted, ['a.txt'])
  assert.throws(() => git(repo.path, 'show', `${state.commit}:.claude/settings.json`))
  repo.write('.mcp.json', JSON.stringify({ mcpServers: { sangam: {}, db: { command: 'db' } } }))
  assert.deepEqual([...(await workingState(repo.path, head)).uncommitted].sort(), ['.mcp.json', 'a.txt'])
})

test('clean worktrees cost one git status each; only a dirty one gets the temporary index', async () => {
  await using repo = tmpGitRepo()
  const head = repo.commit('base')
  const lanes = ['one', 'two', 'three'].map((name) => {
    const path = join(realpathSync(join(repo.path, '..')), name)
    git(repo.path, 'worktree', 'add', '-q', '-b', name, path)
    return path
  })
  writeFileSync(join(lanes[2] as string, 'work.txt'), 'uncommitted\n')
  const dir = mkdtempSync(join(tmpdir(), 'sangam-git-calls-'))
  const log = gitCallLog(dir)
  const saved = process.env.PATH
  process.env.PATH = log.path
  let states: Awaited<ReturnType<typeof workingStates>>
  try {
    states = await workingStates(
      repo.path,
      [repo.path, ...lanes].map((path) => ({ path, head })),
      2,
    )
  } finally {
    process.env.PATH = saved
  }
  const calls = log.calls().map((call) => call.find((arg) => !arg.startsWith('-')))
  rmSync(dir, { recursive: true, force: true })
  assert.deepEqual(
    states.slice(0, 3),
    [0, 1, 2].map(() => ({ commit: head, uncommitted: [] })),
  )
  assert.deepEqual(states[3]?.uncommitted, ['work.txt'])
  assert.equal(calls.filter((name) => name === 'status').length, 4)
  assert.equal(calls.filter((name) => name === 'add').length, 1, 'only the dirty worktree is added')
  assert.equal(calls.filter((name) => name === 'write-tree').length, 1)
})

test('a kept working state is taken while its worktree is as it was, and made again once its commit is pruned', async () => {
  await using repo = tmpGitRepo()
  const head = git(repo.path, 'rev-parse', 'HEAD')
  repo.write('work.txt', 'work\n')
  const then = Date.now() / 1000 - 60
  utimesSync(join(repo.path, 'work.txt'), then, then)
  const kept = new Map<string, WorkingState>()
  const memo: WorkingStateMemo = {
    read: (keys) =>
      new Map(keys.flatMap((key) => (kept.has(key) ? [[key, kept.get(key) as WorkingState]] : []))),
    write: (entries) => {
      for (const { key, state } of entries) kept.set(key, state)
    },
  }
  const [made] = await workingStates(repo.path, [{ path: repo.path, head }], 1, memo)
  assert.equal(kept.size, 1)
  // A kept state that is not the worktree's: taking it shows, as making it again would not.
  const [key] = [...kept.keys()]
  kept.set(key as string, { commit: made?.commit as string, uncommitted: ['taken from the memo'] })
  const [taken] = await workingStates(repo.path, [{ path: repo.path, head }], 1, memo)
  assert.deepEqual(taken?.uncommitted, ['taken from the memo'])
  // `git gc` drops the unreachable state commit: the worktree is read again, and kept again.
  git(repo.path, 'gc', '-q', '--prune=now')
  assert.throws(() => git(repo.path, 'cat-file', '-e', made?.commit as string))
  const [again] = await workingStates(repo.path, [{ path: repo.path, head }], 1, memo)
  assert.deepEqual(again, made)
  assert.deepEqual(kept.get(key as string), made)
})

function withoutTree(result: MergeResult | undefined): Omit<MergeResult, 'tree'> | undefined {
  if (result === undefined) return undefined
  const { tree: _tree, ...rest } = result
  return rest
}
