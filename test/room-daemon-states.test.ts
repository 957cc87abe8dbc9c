import assert from 'node:assert/strict'
import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { gitCallLog } from './helpers/git-call-log.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { eventually, startUp } from './helpers/up-process.ts'

interface States {
  readonly source: 'git' | 'daemon'
  readonly at: number | null
  readonly ageMs: number
}
interface TargetsJson {
  readonly worktrees: readonly { path: string; uncommitted: number | null }[]
  readonly states: States
}
interface ReadyJson {
  readonly branches: readonly {
    worktree: string
    uncommitted: number | null
    mergesCleanly: boolean | null
  }[]
  readonly states: States
}

/** The git subcommands a run called (the first argument that is neither an option nor a `-C` or `-c` value). */
function subcommands(calls: readonly (readonly string[])[]): string[] {
  return calls.map(
    (call) =>
      call.find((arg, i) => !arg.startsWith('-') && call[i - 1] !== '-c' && call[i - 1] !== '-C') ?? '',
  )
}

test('with sangam up running, targets and ready read its round’s worktree states, said with their age', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  const lanes = ['one', 'two', 'three'].map((name) => {
    const path = join(home.path, name)
    git(repo.path, 'worktree', 'add', '-q', '-b', name, path)
    return path
  })
  writeFileSync(join(lanes[2] as string, 'work.txt'), 'uncommitted\n')
  // Stamped a minute ago: a file changed just before a round reads it is not kept (racy).
  const minuteAgo = Date.now() / 1000 - 60
  utimesSync(join(lanes[2] as string, 'work.txt'), minuteAgo, minuteAgo)
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const log = gitCallLog(home.path)
  const logged = log.env(env)

  // No daemon: git is asked, one status per worktree.
  const before = await runCliJson<TargetsJson>(['targets'], { cwd: repo.path, env: logged })
  assert.equal(before.states.source, 'git')
  assert.equal(subcommands(log.calls()).filter((name) => name === 'status').length, 4)

  await using up = startUp([], { cwd: repo.path, env })
  await up.waitFor('started')
  await eventually(
    async () =>
      (await runCliJson<TargetsJson>(['targets'], { cwd: repo.path, env })).states.source === 'daemon',
    30_000,
    'a daemon round',
  )
  log.reset()
  const targets = await runCliJson<TargetsJson>(['targets'], { cwd: repo.path, env: logged })
  assert.equal(targets.states.source, 'daemon')
  assert.ok(targets.states.ageMs >= 0)
  assert.deepEqual(subcommands(log.calls()), [], 'targets asked git nothing')
  assert.equal(targets.worktrees.find((worktree) => worktree.path === lanes[2])?.uncommitted, 1)
  assert.equal(targets.worktrees.find((worktree) => worktree.path === lanes[0])?.uncommitted, 0)

  log.reset()
  const ready = await runCliJson<ReadyJson>(['ready'], { cwd: repo.path, env: logged })
  assert.equal(ready.states.source, 'daemon')
  // The clean lanes come from the round; the dirty one gets one status, and its working state is
  // the one the round kept (no temporary index).
  const called = subcommands(log.calls())
  assert.equal(called.filter((name) => name === 'status').length, 1, called.join(' '))
  assert.deepEqual(
    called.filter((name) => name === 'add' || name === 'write-tree'),
    [],
    called.join(' '),
  )
  assert.deepEqual(
    ready.branches.map((branch) => [branch.worktree, branch.uncommitted, branch.mergesCleanly]),
    [
      [lanes[0], 0, true],
      [lanes[2], 1, true],
      [lanes[1], 0, true],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  )
})
