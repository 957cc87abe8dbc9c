import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { installFakeCodex } from './hooks-fake-codex.ts'

/**
 * The git pre-push gate with real `git push` to a local bare remote. The pusher is the human of
 * the checkout (dev@example.com); bob@example.com is the teammate holding leases.
 */
const bob = 'bob@example.com'

async function pushable() {
  const home = tmpDir()
  const remote = join(home.path, 'remote.git')
  git(home.path, 'init', '-q', '--bare', '-b', 'main', remote)
  const repo = tmpRepoWith(
    { 'src/a.ts': 'export const a = 1\n', 'src/b.ts': 'export const b = 1\n' },
    { remote },
  )
  const env = isolatedEnv(home.path, { PATH: `${installFakeCodex(home.path)}:${process.env.PATH}` })
  const init = await runCliJson<{ database: string }>(['init'], { cwd: repo.path, env })
  assert.equal(push(repo.path, env, 'main').status, 0)
  await runCliJson(['install-hooks'], { cwd: repo.path, env })
  return {
    home,
    repo,
    env,
    database: init.database,
    claimAs: (human: string, ...args: string[]) =>
      runCliJson(['claim', ...args], { cwd: repo.path, env: { ...env, SANGAM_USER: human } }),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

function push(cwd: string, env: Record<string, string | undefined>, ...args: string[]) {
  return spawnSync('git', ['push', '-q', 'origin', ...args], {
    cwd,
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
  })
}

function change(cwd: string, file: string, content: string): void {
  mkdirSync(join(cwd, file, '..'), { recursive: true })
  writeFileSync(join(cwd, file), content)
  git(cwd, 'add', '-A')
  git(cwd, 'commit', '-q', '-m', `change ${file}`)
}

test('a push touching a file another human leased is refused, naming file, holder and reason', async () => {
  await using p = await pushable()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser rewrite')
  change(p.repo.path, 'src/a.ts', 'export const a = 2\n')
  const refused = push(p.repo.path, p.env, 'main')
  assert.notEqual(refused.status, 0)
  assert.match(refused.stderr, /sangam: push refused: it changes files leased by someone else:/)
  assert.match(
    refused.stderr,
    /src\/a\.ts: src\/a\.ts — bob@example\.com, until (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC .*"parser rewrite"/,
  )
  assert.notEqual(
    git(p.repo.path, 'ls-remote', 'origin', 'main').split('\t')[0],
    git(p.repo.path, 'rev-parse', 'HEAD'),
  )
})

test('an unrelated push goes through, and so does a push of a file whose lease expired or was released', async () => {
  await using p = await pushable()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser rewrite')
  change(p.repo.path, 'src/b.ts', 'export const b = 2\n')
  const ok = push(p.repo.path, p.env, 'main')
  assert.equal(ok.status, 0, ok.stderr)
  assert.equal(
    git(p.repo.path, 'ls-remote', 'origin', 'main').split('\t')[0],
    git(p.repo.path, 'rev-parse', 'HEAD'),
  )
  await runCliJson(['release', 'src/a.ts'], { cwd: p.repo.path, env: { ...p.env, SANGAM_USER: bob } })
  change(p.repo.path, 'src/a.ts', 'export const a = 3\n')
  assert.equal(push(p.repo.path, p.env, 'main').status, 0)
})

test('a new branch is checked against what the remote already has; a deletion is never refused', async () => {
  await using p = await pushable()
  git(p.repo.path, 'checkout', '-q', '-b', 'topic')
  change(p.repo.path, 'src/b.ts', 'export const b = 2\n')
  assert.equal(push(p.repo.path, p.env, 'topic').status, 0, 'touches only unleased files')
  await p.claimAs(bob, 'src/b.ts', '-r', 'b work')
  git(p.repo.path, 'checkout', '-q', '-b', 'topic2', 'main')
  change(p.repo.path, 'docs/readme.md', 'hi\n')
  const clean = push(p.repo.path, p.env, 'topic2')
  assert.equal(clean.status, 0, `src/b.ts changed on topic, not on topic2: ${clean.stderr}`)
  const deletion = push(p.repo.path, p.env, '--delete', 'topic')
  assert.equal(deletion.status, 0, deletion.stderr)
})

test('a tag at pushed history changes nothing; pushing tags the remote has (empty stdin) goes through', async () => {
  await using p = await pushable()
  await p.claimAs(bob, '**', '-r', 'everything')
  git(p.repo.path, 'tag', 'v1')
  const tag = push(p.repo.path, p.env, 'v1')
  assert.equal(tag.status, 0, tag.stderr)
  const beat = join(p.database, '..', 'hook-heartbeat', 'git.pre-push.json')
  rmSync(beat)
  const again = push(p.repo.path, p.env, '--tags')
  assert.equal(again.status, 0, again.stderr)
  assert.equal(
    (JSON.parse(readFileSync(beat, 'utf8')) as { outcome: string }).outcome,
    'allow',
    'the gate ran and allowed',
  )
})

test('a merge counts what it brings to the side the remote has: main merged into a branch is no change', async () => {
  await using p = await pushable()
  // bob changes src/a.ts on the remote's main from his own clone (no sangam there), then leases it.
  const theirs = join(p.home.path, 'bob-clone')
  git(p.home.path, 'clone', '-q', join(p.home.path, 'remote.git'), theirs)
  git(theirs, 'config', 'user.email', bob)
  git(theirs, 'config', 'user.name', 'bob')
  change(theirs, 'src/a.ts', 'export const a = 2\n')
  git(theirs, 'push', '-q', 'origin', 'main')
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser rewrite')
  // Here, as sangam's lane integration does: the branch's own work first, then main merged into it.
  change(p.repo.path, 'src/b.ts', 'export const b = 2\n')
  git(p.repo.path, 'fetch', '-q', 'origin')
  git(p.repo.path, 'merge', '-q', '--no-ff', '--no-edit', 'origin/main')
  const merged = push(p.repo.path, p.env, 'main')
  assert.equal(merged.status, 0, `src/a.ts is already so on the remote: ${merged.stderr}`)
  // A merge that brings the leased file to the remote is still refused, whichever side it is on.
  git(p.repo.path, 'checkout', '-q', '-b', 'topic')
  change(p.repo.path, 'src/a.ts', 'export const a = 3\n')
  git(p.repo.path, 'checkout', '-q', 'main')
  git(p.repo.path, 'merge', '-q', '--no-ff', '--no-edit', 'topic')
  const refused = push(p.repo.path, p.env, 'main')
  assert.notEqual(refused.status, 0)
  assert.match(refused.stderr, /src\/a\.ts: src\/a\.ts — bob@example\.com/)
})

test('the human’s own agent sessions never block the human’s push', async () => {
  await using p = await pushable()
  await runCliJson(['claim', 'src/a.ts', '-r', 'agent work'], {
    cwd: p.repo.path,
    env: { ...p.env, CLAUDE_CODE_SESSION_ID: 'a-claude-session' },
  })
  change(p.repo.path, 'src/a.ts', 'export const a = 2\n')
  const run = push(p.repo.path, p.env, 'main')
  assert.equal(run.status, 0, run.stderr)
})

test('a chained pre-push runs after the gate with the same arguments and stdin, and can still refuse', async () => {
  await using p = await pushable()
  const hooks = join(p.repo.path, '.git', 'hooks')
  const seen = join(p.home.path, 'chained-saw.txt')
  writeFileSync(
    join(hooks, 'pre-push'),
    `#!/bin/sh\n{ echo "args: $1 $2"; cat; } > ${JSON.stringify(seen)}\nexit "\${CHAINED_EXIT:-0}"\n`,
    {
      mode: 0o755,
    },
  )
  await runCliJson(['install-hooks'], { cwd: p.repo.path, env: p.env })
  change(p.repo.path, 'src/b.ts', 'export const b = 2\n')
  const head = git(p.repo.path, 'rev-parse', 'HEAD')
  const refusedByChained = push(p.repo.path, { ...p.env, CHAINED_EXIT: '1' }, 'main')
  assert.notEqual(refusedByChained.status, 0)
  const saw = readFileSync(seen, 'utf8')
  assert.match(
    saw,
    new RegExp(
      `^args: origin ${join(p.home.path, 'remote.git')}\nrefs/heads/main ${head} refs/heads/main [0-9a-f]{40}\n$`,
    ),
  )
  assert.equal(push(p.repo.path, p.env, 'main').status, 0)

  rmSync(seen)
  await p.claimAs(bob, 'src/b.ts', '-r', 'b work')
  change(p.repo.path, 'src/b.ts', 'export const b = 3\n')
  assert.notEqual(push(p.repo.path, p.env, 'main').status, 0)
  assert.throws(() => readFileSync(seen), 'the chained hook does not run once the gate refused')
})

test('the gate works from a linked worktree and through core.hooksPath', async () => {
  await using p = await pushable()
  git(p.repo.path, 'config', 'core.hooksPath', '.githooks')
  await runCliJson(['install-hooks'], { cwd: p.repo.path, env: p.env })
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser rewrite')
  const worktree = join(p.repo.path, '..', 'lane')
  git(p.repo.path, 'worktree', 'add', '-q', worktree, '-b', 'lane')
  mkdirSync(join(worktree, '.githooks'), { recursive: true })
  for (const name of ['pre-push']) {
    writeFileSync(join(worktree, '.githooks', name), readFileSync(join(p.repo.path, '.githooks', name)), {
      mode: 0o755,
    })
  }
  change(worktree, 'src/a.ts', 'export const a = 9\n')
  const refused = push(worktree, p.env, 'lane')
  assert.notEqual(refused.status, 0)
  assert.match(refused.stderr, /src\/a\.ts: .*bob@example\.com/)
})

test('an unreadable store lets the push through with a warning', async () => {
  await using p = await pushable()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser rewrite')
  for (const file of [p.database, `${p.database}-wal`, `${p.database}-shm`]) rmSync(file, { force: true })
  writeFileSync(p.database, 'garbage '.repeat(1000))
  change(p.repo.path, 'src/a.ts', 'export const a = 2\n')
  const run = push(p.repo.path, p.env, 'main')
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stderr, /sangam: cannot read the lease store .*; the push was not checked/)
})
