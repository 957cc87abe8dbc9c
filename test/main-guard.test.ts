import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { installFakeCodex } from './hooks-fake-codex.ts'

/**
 * The main guard with real git: `init --guard` installs six hooks that refuse writes and pushes of
 * main unless sangam's integration makes them (SANGAM_INTEGRATOR = the armed token), chaining the
 * user's own hooks and honouring core.hooksPath.
 */
const sixHooks = [
  'pre-commit',
  'pre-merge-commit',
  'pre-rebase',
  'pre-applypatch',
  'pre-push',
  'reference-transaction',
]

interface GuardJson {
  guard: {
    mainBranch: string
    armedBy: string
    hooks: { hook: string; file: string; change: string; chained: string | null }[]
  } | null
}

async function guarded(options: { hooksPath?: string; before?: (repo: string) => void } = {}) {
  const home = tmpDir()
  const remote = join(home.path, 'remote.git')
  git(home.path, 'init', '-q', '--bare', '-b', 'main', remote)
  const repo = tmpGitRepo({ remote })
  git(repo.path, 'push', '-q', 'origin', 'main')
  if (options.hooksPath !== undefined) git(repo.path, 'config', 'core.hooksPath', options.hooksPath)
  options.before?.(repo.path)
  const env = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  const init = await runCliJson<GuardJson>(['init', '--no-mcp', '--guard'], { cwd: repo.path, env })
  const lane = join(home.path, 'lane-a')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane/a', lane, 'main')
  const token = /token=([0-9a-f]+)/.exec(
    readFileSync(join(repo.path, '.git', 'sangam', 'main-guard'), 'utf8'),
  )?.[1]
  assert.ok(token)
  return {
    home,
    repo,
    env,
    lane,
    init,
    integrator: { ...env, SANGAM_INTEGRATOR: token },
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

/** Runs git as a user would (hooks on), returning status and stderr. */
function run(cwd: string, env: Record<string, string | undefined>, ...args: string[]) {
  return spawnSync('git', args, { cwd, env: env as NodeJS.ProcessEnv, encoding: 'utf8' })
}

function edit(cwd: string, file: string, content: string): void {
  writeFileSync(join(cwd, file), content)
  git(cwd, 'add', '-A')
}

const protectedMessage = /sangam: main is protected: .*'main' moves only through `sangam sync`/

test('init --guard installs the six hooks and a commit on main is refused, while a lane commits freely', async () => {
  await using g = await guarded()
  assert.deepEqual(
    g.init.guard?.hooks.map((hook) => [hook.hook, hook.change]),
    sixHooks.map((hook) => [hook, 'added']),
  )
  assert.equal(g.init.guard?.mainBranch, 'main')
  const before = git(g.repo.path, 'rev-parse', 'main')
  edit(g.repo.path, 'a.txt', 'one\n')
  const refused = run(g.repo.path, g.env, 'commit', '-q', '-m', 'direct')
  assert.notEqual(refused.status, 0)
  assert.match(refused.stderr, /a commit on 'main' is refused/)
  // --no-verify skips pre-commit; reference-transaction still holds main where it was.
  const bypass = run(g.repo.path, g.env, 'commit', '-q', '--no-verify', '-m', 'direct')
  assert.notEqual(bypass.status, 0)
  assert.match(bypass.stderr, /moving 'main'/)
  assert.equal(git(g.repo.path, 'rev-parse', 'main'), before)

  edit(g.lane, 'b.txt', 'lane work\n')
  const laneCommit = run(g.lane, g.env, 'commit', '-q', '-m', 'lane work')
  assert.equal(laneCommit.status, 0, laneCommit.stderr)
})

test('moving main by hand is refused from any worktree, and sangam integration (the token) moves it', async () => {
  await using g = await guarded()
  edit(g.lane, 'b.txt', 'lane work\n')
  git(g.lane, 'commit', '-q', '-m', 'lane work')
  const laneHead = git(g.lane, 'rev-parse', 'HEAD')
  const before = git(g.repo.path, 'rev-parse', 'main')
  // (git itself refuses `branch -f` of a checked-out main; update-ref it does not.)
  for (const args of [
    ['update-ref', 'refs/heads/main', laneHead],
    ['update-ref', '-d', 'refs/heads/main'],
  ]) {
    const refused = run(g.lane, g.env, ...args)
    assert.notEqual(refused.status, 0, `git ${args.join(' ')} was not refused`)
    assert.match(refused.stderr, protectedMessage)
  }
  const merge = run(g.repo.path, g.env, 'merge', '-q', '--ff-only', 'lane/a')
  assert.notEqual(merge.status, 0)
  const reset = run(g.repo.path, g.env, 'reset', '-q', '--hard', laneHead)
  assert.notEqual(reset.status, 0)
  assert.equal(git(g.repo.path, 'rev-parse', 'main'), before)

  // A wrong token is no token.
  const wrong = run(
    g.lane,
    { ...g.env, SANGAM_INTEGRATOR: 'guess' },
    'update-ref',
    'refs/heads/main',
    laneHead,
  )
  assert.notEqual(wrong.status, 0)
  // Nor is the mark sangam's lane git once carried (SANGAM_INTERNAL_WRITE): the token is the one pass.
  const marked = run(
    g.lane,
    { ...g.env, SANGAM_INTERNAL_WRITE: '1' },
    'update-ref',
    'refs/heads/main',
    laneHead,
  )
  assert.notEqual(marked.status, 0)
  assert.match(marked.stderr, protectedMessage)
  const integrated = run(g.lane, g.integrator, 'update-ref', 'refs/heads/main', laneHead, before)
  assert.equal(integrated.status, 0, integrated.stderr)
  assert.equal(git(g.repo.path, 'rev-parse', 'main'), laneHead)
})

test('the guard finds its arming file with no git process, from main, a lane, and a lane whose .git names its git dir relatively', async () => {
  await using g = await guarded()
  const main = git(g.repo.path, 'rev-parse', 'main')
  edit(g.lane, 'b.txt', 'lane work\n')
  git(g.lane, 'commit', '-q', '-m', 'lane work')
  const laneHead = git(g.lane, 'rev-parse', 'HEAD')
  const hook = join(g.repo.path, '.git', 'hooks', 'reference-transaction')
  // No git on PATH: an answer that needed `git rev-parse --git-common-dir` would find no arming
  // file and let main move.
  const prepared = (cwd: string) =>
    spawnSync('/bin/sh', [hook, 'prepared'], {
      cwd,
      env: { PATH: '/nonexistent' },
      input: `${main} ${laneHead} refs/heads/main\n`,
      encoding: 'utf8',
    })
  const laneGitFile = join(g.lane, '.git')
  const absolute = readFileSync(laneGitFile, 'utf8')
  const gitDir = absolute.replace(/^gitdir: /, '').trim()
  for (const [where, cwd, rewrite] of [
    ['main', g.repo.path, null],
    ['a lane', g.lane, null],
    ['a lane, relative', g.lane, `gitdir: ${relative(g.lane, gitDir)}\n`],
  ] as const) {
    if (rewrite !== null) writeFileSync(laneGitFile, rewrite)
    const answer = prepared(cwd)
    assert.equal(answer.status, 1, `${where}: ${answer.stderr}`)
    assert.match(answer.stderr, protectedMessage, where)
  }
  // git itself follows the relative file, and the guard still holds main from there.
  const refused = run(g.lane, g.env, 'update-ref', 'refs/heads/main', laneHead)
  assert.notEqual(refused.status, 0)
  assert.match(refused.stderr, protectedMessage)
  // A ref that is not main passes without git, as before.
  const other = spawnSync('/bin/sh', [hook, 'prepared'], {
    cwd: g.lane,
    env: { PATH: '/nonexistent' },
    input: `${main} ${laneHead} refs/heads/lane/a\n`,
    encoding: 'utf8',
  })
  assert.equal(other.status, 0, other.stderr)
})

test('merge commits, rebases and applied patches on main are refused; the same on a lane are not', async () => {
  await using g = await guarded()
  edit(g.lane, 'b.txt', 'lane work\n')
  git(g.lane, 'commit', '-q', '-m', 'lane work')
  const patch = git(g.lane, 'format-patch', '-1', '--stdout')
  // main gains a commit (by the integrator) so that merging the lane needs a merge commit.
  git(g.repo.path, 'checkout', '-q', '-b', 'side', 'main')
  edit(g.repo.path, 'c.txt', 'side\n')
  git(g.repo.path, 'commit', '-q', '-m', 'side')
  git(g.repo.path, 'checkout', '-q', 'main')
  const merge = run(g.repo.path, g.env, 'merge', '--no-ff', '-q', '-m', 'merge side', 'side')
  assert.notEqual(merge.status, 0)
  assert.match(merge.stderr, /a merge commit on 'main' is refused/)
  run(g.repo.path, g.env, 'merge', '--abort')

  const rebase = run(g.repo.path, g.env, 'rebase', '-q', 'side')
  assert.notEqual(rebase.status, 0)
  assert.match(rebase.stderr, /rebasing 'main' is refused/)
  git(g.repo.path, 'checkout', '-q', 'side')
  const rebaseNamed = run(g.repo.path, g.env, 'rebase', '-q', 'lane/a', 'main')
  assert.notEqual(rebaseNamed.status, 0)
  assert.match(rebaseNamed.stderr, /rebasing 'main' is refused/)
  git(g.repo.path, 'checkout', '-q', 'main')

  const am = spawnSync('git', ['am', '-q'], {
    cwd: g.repo.path,
    env: g.env as NodeJS.ProcessEnv,
    input: patch,
    encoding: 'utf8',
  })
  assert.notEqual(am.status, 0)
  assert.match(am.stderr, /applying a patch on 'main' is refused/)
  run(g.repo.path, g.env, 'am', '--abort')

  const laneRebase = run(g.lane, g.env, 'rebase', '-q', 'side')
  assert.equal(laneRebase.status, 0, laneRebase.stderr)
})

test('a push of main is refused, a lane branch is pushed, and a fetch moving origin/main passes', async () => {
  await using g = await guarded()
  edit(g.lane, 'b.txt', 'lane work\n')
  git(g.lane, 'commit', '-q', '-m', 'lane work')
  const laneHead = git(g.lane, 'rev-parse', 'HEAD')
  const refused = run(g.lane, g.env, 'push', '-q', 'origin', 'lane/a:main')
  assert.notEqual(refused.status, 0)
  assert.match(refused.stderr, /push refused: main is protected/)
  const deleted = run(g.lane, g.env, 'push', '-q', 'origin', ':main')
  assert.notEqual(deleted.status, 0)
  assert.notEqual(git(g.repo.path, 'ls-remote', 'origin', 'refs/heads/main').split('\t')[0], laneHead)
  const lanePush = run(g.lane, g.env, 'push', '-q', 'origin', 'lane/a')
  assert.equal(lanePush.status, 0, lanePush.stderr)

  // Another machine moved the remote's main: fetching it here only moves refs/remotes/origin/main.
  const other = join(g.home.path, 'other')
  git(g.home.path, 'clone', '-q', join(g.home.path, 'remote.git'), other)
  git(other, 'config', 'user.email', 'bob@example.com')
  git(other, 'config', 'user.name', 'Bob')
  writeFileSync(join(other, 'd.txt'), 'bob\n')
  git(other, 'add', '-A')
  git(other, 'commit', '-q', '-m', 'bob')
  git(other, 'push', '-q', 'origin', 'main')
  const fetch = run(g.repo.path, g.env, 'fetch', '-q', 'origin')
  assert.equal(fetch.status, 0, fetch.stderr)
  assert.equal(git(g.repo.path, 'rev-parse', 'origin/main'), git(other, 'rev-parse', 'HEAD'))

  const integrated = run(g.lane, g.integrator, 'push', '-q', 'origin', `${laneHead}:refs/heads/side`)
  assert.equal(integrated.status, 0, integrated.stderr)
})

test("the user's own hooks are chained: they run after the guard with the same arguments and stdin", async () => {
  await using g = await guarded({
    before: (repo) => {
      const hooks = join(repo, '.git', 'hooks')
      mkdirSync(hooks, { recursive: true })
      for (const hook of ['pre-commit', 'reference-transaction']) {
        writeFileSync(
          join(hooks, hook),
          `#!/bin/sh\necho "${hook} $*" >> "$(git rev-parse --git-common-dir)/chain.log"\ncat >> "$(git rev-parse --git-common-dir)/chain.log"\nexit 0\n`,
        )
        chmodSync(join(hooks, hook), 0o755)
      }
      writeFileSync(join(hooks, 'pre-merge-commit'), '#!/bin/sh\necho "user refuses merges" >&2\nexit 1\n')
      chmodSync(join(hooks, 'pre-merge-commit'), 0o755)
    },
  })
  const byHook = new Map(g.init.guard?.hooks.map((hook) => [hook.hook, hook]))
  assert.equal(
    byHook.get('pre-commit')?.chained,
    join(g.repo.path, '.git', 'hooks', 'pre-commit.sangam-chained'),
  )
  assert.equal(byHook.get('pre-rebase')?.chained, null)
  const log = join(g.repo.path, '.git', 'chain.log')
  writeFileSync(log, '')
  edit(g.lane, 'b.txt', 'lane work\n')
  const commit = run(g.lane, g.env, 'commit', '-q', '-m', 'lane work')
  assert.equal(commit.status, 0, commit.stderr)
  const laneHead = git(g.lane, 'rev-parse', 'HEAD')
  const chained = readFileSync(log, 'utf8')
  assert.match(chained, /^pre-commit $/m)
  assert.match(chained, /^reference-transaction prepared$/m)
  assert.match(
    chained,
    new RegExp(`^0{40} ${laneHead} refs/heads/lane/a$|^[0-9a-f]{40} ${laneHead} refs/heads/lane/a$`, 'm'),
  )
  assert.match(chained, /^reference-transaction committed$/m)

  // The user's own refusal still refuses a merge on the lane, where the guard has nothing to say.
  git(g.repo.path, 'branch', 'side', 'main')
  git(g.lane, 'checkout', '-q', 'side')
  edit(g.lane, 'e.txt', 'side\n')
  git(g.lane, 'commit', '-q', '-m', 'side')
  git(g.lane, 'checkout', '-q', 'lane/a')
  const merge = run(g.lane, g.env, 'merge', '--no-ff', '-q', '-m', 'merge', 'side')
  assert.notEqual(merge.status, 0)
  assert.match(merge.stderr, /user refuses merges/)
  run(g.lane, g.env, 'merge', '--abort')

  // A refused commit on main never reaches the user's hook.
  writeFileSync(log, '')
  edit(g.repo.path, 'a.txt', 'one\n')
  assert.notEqual(run(g.repo.path, g.env, 'commit', '-q', '-m', 'direct').status, 0)
  assert.doesNotMatch(readFileSync(log, 'utf8'), /^pre-commit/m)
})

test('core.hooksPath is honoured, and a repository sharing that directory unarmed is not guarded', async () => {
  await using shared = tmpDir()
  const hooksPath = join(shared.path, 'hooks')
  await using g = await guarded({ hooksPath })
  for (const hook of g.init.guard?.hooks ?? []) assert.equal(hook.file, join(hooksPath, hook.hook))
  assert.equal(existsSync(join(g.repo.path, '.git', 'hooks', 'pre-commit')), false)
  edit(g.repo.path, 'a.txt', 'one\n')
  assert.notEqual(run(g.repo.path, g.env, 'commit', '-q', '-m', 'direct').status, 0)

  await using other = tmpGitRepo()
  git(other.path, 'config', 'core.hooksPath', hooksPath)
  other.write('x.txt', 'x\n')
  git(other.path, 'add', '-A')
  const free = run(other.path, g.env, 'commit', '-q', '-m', 'unguarded')
  assert.equal(free.status, 0, free.stderr)
})

test('init --guard again changes nothing; install-hooks keeps the guard; uninstall puts the user hooks back', async () => {
  await using g = await guarded({
    before: (repo) => {
      writeFileSync(join(repo, '.git', 'hooks', 'pre-rebase'), '#!/bin/sh\nexit 0\n')
      chmodSync(join(repo, '.git', 'hooks', 'pre-rebase'), 0o755)
    },
  })
  const again = await runCliJson<GuardJson>(['init', '--no-mcp', '--guard'], { cwd: g.repo.path, env: g.env })
  assert.deepEqual(
    again.guard?.hooks.map((hook) => hook.change),
    sixHooks.map(() => 'unchanged'),
  )
  // Plain init on an armed repository refreshes the guard too.
  const plain = await runCliJson<GuardJson>(['init', '--no-mcp'], { cwd: g.repo.path, env: g.env })
  assert.equal(plain.guard?.mainBranch, 'main')

  const installed = await runCliJson<{ git: { change: string }; guard: GuardJson['guard'] }>(
    ['install-hooks'],
    {
      cwd: g.repo.path,
      env: g.env,
    },
  )
  assert.equal(installed.git.change, 'unchanged')
  assert.deepEqual(
    installed.guard?.hooks.map((hook) => hook.change),
    sixHooks.map(() => 'unchanged'),
  )

  const doctor = await runCliJson<{
    sections: { name: string; guard?: { installed: string[]; missing: string[] } }[]
  }>(['doctor'], { cwd: g.repo.path, env: g.env })
  const hooks = doctor.sections.find((section) => section.name === 'hooks')
  assert.deepEqual(hooks?.guard?.installed, sixHooks)
  assert.deepEqual(hooks?.guard?.missing, [])

  const removed = await runCliJson<{ guard: GuardJson['guard'] }>(['install-hooks', '--uninstall'], {
    cwd: g.repo.path,
    env: g.env,
  })
  const byHook = new Map(removed.guard?.hooks.map((hook) => [hook.hook, hook]))
  assert.equal(byHook.get('pre-rebase')?.chained, join(g.repo.path, '.git', 'hooks', 'pre-rebase'))
  assert.equal(readFileSync(join(g.repo.path, '.git', 'hooks', 'pre-rebase'), 'utf8'), '#!/bin/sh\nexit 0\n')
  for (const hook of ['pre-commit', 'pre-push', 'reference-transaction'])
    assert.equal(existsSync(join(g.repo.path, '.git', 'hooks', hook)), false, hook)
  assert.equal(existsSync(join(g.repo.path, '.git', 'sangam', 'main-guard')), false)
  edit(g.repo.path, 'a.txt', 'one\n')
  const commit = run(g.repo.path, g.env, 'commit', '-q', '-m', 'free again')
  assert.equal(commit.status, 0, commit.stderr)

  const doctorAfter = await runCliJson<{
    sections: { name: string; guard?: { mainBranch: string | null } }[]
  }>(['doctor'], { cwd: g.repo.path, env: g.env })
  assert.equal(doctorAfter.sections.find((section) => section.name === 'hooks')?.guard?.mainBranch, null)
})

test('doctor names a guard hook that is not sangam’s', async () => {
  await using g = await guarded()
  writeFileSync(join(g.repo.path, '.git', 'hooks', 'pre-applypatch'), '#!/bin/sh\nexit 0\n')
  const doctor = await runCliJson<{
    sections: { name: string; notes: string[]; guard?: { missing: string[] } }[]
  }>(['doctor'], { cwd: g.repo.path, env: g.env })
  const hooks = doctor.sections.find((section) => section.name === 'hooks')
  assert.deepEqual(hooks?.guard?.missing, ['pre-applypatch'])
  assert.ok(
    hooks?.notes.some((note) => /main guard protects 'main' but pre-applypatch is not sangam's/.test(note)),
  )
})

test('plain init leaves git hooks alone; --main without --guard and a bad branch name are refused', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  const init = await runCliJson<GuardJson>(['init', '--no-mcp'], { cwd: repo.path, env })
  assert.equal(init.guard, null)
  assert.equal(existsSync(join(repo.path, '.git', 'hooks', 'reference-transaction')), false)
  const usage = await runCli(['init', '--no-mcp', '--main', 'trunk'], { cwd: repo.path, env })
  assert.equal(usage.code, 2)
  assert.match(usage.stderr, /--main names the branch --guard protects/)
  const bad = await runCli(['init', '--no-mcp', '--guard', '--main', 'a..b'], { cwd: repo.path, env })
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /not a branch name the guard can protect/)
  assert.equal(existsSync(join(repo.path, '.git', 'sangam', 'main-guard')), false)
})

test('init --guard protects the branch lanes publish to: what origin/HEAD names, else main, master, trunk', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  repo.write('a.txt', 'one\n')
  repo.commit('base')
  git(repo.path, 'branch', 'develop')
  git(repo.path, 'update-ref', 'refs/remotes/origin/develop', 'HEAD')
  git(repo.path, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/develop')
  const init = await runCliJson<GuardJson>(['init', '--no-mcp', '--guard'], { cwd: repo.path, env })
  assert.equal(init.guard?.mainBranch, 'develop')

  // No such branch at all: said, with what to do, and nothing armed (no guessing from HEAD).
  await using bare = tmpGitRepo()
  git(bare.path, 'checkout', '-q', '-b', 'work')
  bare.write('a.txt', 'one\n')
  bare.commit('base')
  git(bare.path, 'branch', '-D', 'main')
  const none = await runCli(['init', '--no-mcp', '--guard'], { cwd: bare.path, env })
  assert.notEqual(none.code, 0)
  assert.match(none.stderr, /no main branch .*--main <branch>/)
  assert.equal(existsSync(join(bare.path, '.git', 'sangam', 'main-guard')), false)

  // origin/HEAD names a branch this clone has no local branch of: neither guarded nor laned by guess.
  git(bare.path, 'update-ref', 'refs/remotes/origin/release', 'HEAD')
  git(bare.path, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/release')
  const remoteOnly = await runCli(['init', '--no-mcp', '--guard'], { cwd: bare.path, env })
  assert.notEqual(remoteOnly.code, 0)
  assert.match(remoteOnly.stderr, /no local branch of: create it with `git branch release origin\/release`/)
  assert.equal(existsSync(join(bare.path, '.git', 'sangam', 'main-guard')), false)
  const lane = await runCli(['lane', 'x', '--no-agent', '--json'], { cwd: bare.path, env })
  assert.notEqual(lane.code, 0)
  assert.match(
    lane.stdout,
    /no local branch of: create it with `git branch release origin\/release`, then create lanes/,
  )
  assert.equal(git(bare.path, 'for-each-ref', '--format=%(refname)', 'refs/heads/'), 'refs/heads/work')
  git(bare.path, 'branch', 'release', 'origin/release')
  const laned = await runCliJson<{ lane: { branch: string } }>(['lane', 'x', '--no-agent'], {
    cwd: bare.path,
    env,
  })
  assert.equal(laned.lane.branch, 'lane/x')
})

test('the first lane arms the guard; status shows it installed, and sync still moves main through it', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { SANGAM_USER: 'dev@example.com' })
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const entered = await runCliJson<{ lane: { worktree: string }; guard: GuardJson['guard'] }>(
    ['lane', 'a', '--no-agent'],
    { cwd: repo.path, env },
  )
  assert.equal(entered.guard?.mainBranch, 'main')
  const status = await runCliJson<{ guard: { installed: boolean; missing: string[] } }>(['status'], {
    cwd: repo.path,
    env,
  })
  assert.deepEqual(status.guard, { installed: true, missing: [] })
  writeFileSync(join(entered.lane.worktree, 'a.txt'), 'lane work\n')
  const synced = await runCliJson<{ outcome: string; main: string }>(['sync'], {
    cwd: entered.lane.worktree,
    env,
  })
  assert.equal(synced.outcome, 'published-direct')
  assert.equal(git(repo.path, 'rev-parse', 'main'), synced.main)
  // By hand, main stays put.
  writeFileSync(join(repo.path, 'b.txt'), 'direct\n')
  git(repo.path, 'add', '-A')
  assert.notEqual(run(repo.path, env, 'commit', '-q', '-m', 'direct').status, 0)
})

test('a refused reset, fast-forward or checkout -B of main leaves the files as main is; a refused commit keeps its staged work', async () => {
  await using g = await guarded()
  edit(g.lane, 'b.txt', 'lane work\n')
  git(g.lane, 'commit', '-q', '-m', 'lane work')
  const laneHead = git(g.lane, 'rev-parse', 'HEAD')
  const before = git(g.repo.path, 'rev-parse', 'main')
  writeFileSync(join(g.repo.path, 'local.txt'), 'a file of mine\n')
  // git rewrites the worktree before it asks to move the ref; the guard puts it back.
  for (const args of [
    ['reset', '-q', '--hard', laneHead],
    ['merge', '-q', '--ff-only', 'lane/a'],
    ['checkout', '-q', '-B', 'main', 'lane/a'],
  ]) {
    const refused = run(g.repo.path, g.env, ...args)
    assert.notEqual(refused.status, 0, `git ${args.join(' ')} was not refused`)
    assert.match(refused.stderr, protectedMessage)
    assert.match(refused.stderr, /they were put back as 'main' is/)
    assert.equal(git(g.repo.path, 'rev-parse', 'main'), before)
    assert.equal(git(g.repo.path, 'status', '--porcelain'), '?? local.txt', `after git ${args.join(' ')}`)
  }
  // A reset of the index alone: the index comes back, the files were never touched.
  const mixed = run(g.repo.path, g.env, 'reset', '-q', '--mixed', laneHead)
  assert.notEqual(mixed.status, 0)
  assert.equal(git(g.repo.path, 'status', '--porcelain'), '?? local.txt')
  // A commit being made is the user's own work: refused, and its staged changes stay staged.
  writeFileSync(join(g.repo.path, 'mine.txt'), 'staged\n')
  git(g.repo.path, 'add', 'mine.txt')
  const commit = run(g.repo.path, g.env, 'commit', '-q', '--no-verify', '-m', 'direct')
  assert.notEqual(commit.status, 0)
  assert.doesNotMatch(commit.stderr, /put back/)
  assert.equal(git(g.repo.path, 'status', '--porcelain'), 'A  mine.txt\n?? local.txt')
})
