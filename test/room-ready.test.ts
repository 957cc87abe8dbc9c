import assert from 'node:assert/strict'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/** `sangam ready` as a user runs it: the compiled CLI, a real repository with real worktrees. */

interface Verdict {
  into: string
  complete: boolean
  clean: number
  latent: number
  conflicted: number
  branches: {
    branch: string | null
    worktree: string
    mergesCleanly: boolean | null
    conflicts: string[]
    collidesWith: { branch: string | null; paths: string[] }[]
    uncommitted: number | null
    skipped: string | null
  }[]
}

async function world() {
  const repo = tmpGitRepo({ commit: true })
  const home = repo.path.replace(/\/repo$/, '')
  const env = isolatedEnv(home, { SANGAM_USER: 'asha@example.com' })
  repo.write('src/shared.ts', 'export const a = 1\nexport const b = 2\nexport const c = 3\n')
  repo.write('src/solo.ts', 'export const s = 1\n')
  repo.commit('base')
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const lane = (name: string, ...extra: string[]) => {
    const path = join(home, name)
    git(repo.path, 'worktree', 'add', '-q', ...extra, path)
    return path
  }
  return {
    repo,
    home,
    env,
    lane,
    json: (args: string[], cwd = repo.path) => runCliJson<Verdict>(args, { cwd, env }),
  }
}

test('two lanes editing the same lines uncommitted are latent both ways before either commits; the worktrees are untouched', async () => {
  const w = await world()
  await using _ = w.repo
  const one = w.lane('one', '-b', 'one')
  const two = w.lane('two', '-b', 'two')
  const three = w.lane('three', '-b', 'three')
  writeFileSync(join(one, 'src/shared.ts'), 'export const a = 10\nexport const b = 2\nexport const c = 3\n')
  writeFileSync(join(two, 'src/shared.ts'), 'export const a = 20\nexport const b = 2\nexport const c = 3\n')
  writeFileSync(join(two, 'src/new.ts'), 'export const n = 1\n') // untracked counts too
  writeFileSync(join(three, 'src/solo.ts'), 'export const s = 2\n')
  const status = (path: string) => git(path, 'status', '--porcelain=v2', '-z', '--untracked-files=all')
  const before = [one, two, three].map((path) => [status(path), readFileSync(join(path, '.git'), 'utf8')])

  const verdict = await w.json(['ready', '--into', 'main'])
  assert.deepEqual(
    [verdict.into, verdict.complete, verdict.clean, verdict.latent, verdict.conflicted],
    ['main', true, 1, 2, 0],
  )
  assert.deepEqual(
    verdict.branches.map((b) => [b.branch, b.mergesCleanly, b.uncommitted, b.collidesWith]),
    [
      ['one', true, 1, [{ branch: 'two', worktree: two, paths: ['src/shared.ts'] }]],
      ['two', true, 2, [{ branch: 'one', worktree: one, paths: ['src/shared.ts'] }]],
      ['three', true, 1, []],
    ],
  )
  assert.deepEqual(
    [one, two, three].map((path) => [status(path), readFileSync(join(path, '.git'), 'utf8')]),
    before,
  )
  // Warm: the same answer from the memo.
  type Run = Verdict & { merged: number; states: { source: string; at: number } }
  const { merged: coldMerges, states: coldStates, ...cold } = verdict as Run
  const { merged: warmMerges, states: warmStates, ...warm } = (await w.json(['ready'])) as Run
  assert.deepEqual(warm, cold)
  assert.deepEqual([coldStates.source, warmStates.source], ['git', 'git'], 'no daemon runs')
  assert.deepEqual([coldMerges, warmMerges], [4, 0])
  const text = await runCli(['ready'], { cwd: w.repo.path, env: w.env })
  assert.equal(text.code, 0)
  assert.match(text.stdout, /into main: 1 clean, 2 latent, 0 conflicted/)
  assert.match(text.stdout, /latent\s+one\s+1\s+collides with two on src\/shared\.ts/)
  assert.equal(text.stderr, '')
})

test('a lane that does not merge into the target is conflicted; detached, deleted and branchless worktrees are reported, not fatal', async () => {
  const w = await world()
  await using _ = w.repo
  const late = w.lane('late', '-b', 'late')
  writeFileSync(join(late, 'src/shared.ts'), 'export const a = 5\nexport const b = 2\nexport const c = 3\n')
  git(late, 'commit', '-qam', 'late a')
  w.repo.write('src/shared.ts', 'export const a = 7\nexport const b = 2\nexport const c = 3\n')
  w.repo.commit('main moves a')
  const detached = w.lane('loose', '--detach')
  writeFileSync(join(detached, 'src/solo.ts'), 'export const s = 9\n')
  rmSync(w.lane('gone', '-b', 'gone'), { recursive: true, force: true })
  w.lane('orphan', '-b', 'doomed')
  git(w.repo.path, 'update-ref', '-d', 'refs/heads/doomed')

  const verdict = await w.json(['ready'])
  assert.equal(verdict.complete, true)
  assert.deepEqual(
    verdict.branches.map((b) => [b.branch, b.mergesCleanly, b.conflicts, b.skipped]),
    [
      ['late', false, ['src/shared.ts'], null],
      [null, true, [], null],
      ['doomed', null, [], 'no-commit'],
      ['gone', null, [], 'missing'],
    ],
  )
  assert.equal(verdict.conflicted, 1)
})

test('bad input: an --into naming nothing is refused with the reason and nothing is written', async () => {
  const w = await world()
  await using _ = w.repo
  for (const into of ['no-such-branch', '--oops', '']) {
    const result = await runCli(['ready', '--into', into, '--json'], { cwd: w.repo.path, env: w.env })
    assert.equal(result.code, 2, result.stderr)
    const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } }
    assert.equal(error.code, 'INVALID_INPUT')
    assert.match(error.message, /names no branch or commit here/)
  }
})
