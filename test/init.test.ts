import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { cliEntry, isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'

interface InitJson {
  projectId: string
  root: string
  remote: string | null
  identitySource: string
  worktrees: string[]
  database: string
}

test('ssh, https and scp forms of one remote give one project id, without credentials', async () => {
  await using home = tmpDir()
  const ids = new Set<string>()
  for (const remote of [
    'git@github.com:Acme/Widget.git',
    'ssh://git@github.com:22/acme/widget',
    'https://user:s3cret-token@github.com/acme/widget.git',
  ]) {
    await using repo = tmpGitRepo({ remote })
    const out = await runCliJson<InitJson>(['init'], { cwd: repo.path, env: isolatedEnv(home.path) })
    assert.equal(out.remote, 'github.com/acme/widget')
    assert.equal(out.identitySource, 'remote')
    ids.add(out.projectId)
  }
  assert.equal(ids.size, 1)
})

test('a repository with no remote and no commits is identified by its git dir, and all worktrees are one project', async () => {
  await using home = tmpDir()
  await using empty = tmpGitRepo({ commit: false })
  const first = await runCliJson<InitJson>(['init'], { cwd: empty.path, env: isolatedEnv(home.path) })
  assert.equal(first.identitySource, 'common-dir')
  assert.equal(first.remote, null)

  await using repo = tmpGitRepo()
  const worktree = join(repo.path, '..', 'wt-a')
  git(repo.path, 'worktree', 'add', '-q', worktree, '-b', 'a')
  const fromMain = await runCliJson<InitJson>(['init'], { cwd: repo.path, env: isolatedEnv(home.path) })
  const fromWorktree = await runCliJson<InitJson>(['init'], {
    cwd: join(worktree),
    env: isolatedEnv(home.path),
  })
  assert.equal(fromMain.projectId, fromWorktree.projectId)
  assert.notEqual(fromMain.projectId, first.projectId)
  assert.equal(fromWorktree.worktrees.length, 2)
})

test('the data directory is 0700 and the database 0600', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const out = await runCliJson<InitJson>(['init'], { cwd: repo.path, env: isolatedEnv(home.path) })
  assert.equal(statSync(join(home.path, '.sangam')).mode & 0o777, 0o700)
  assert.equal(statSync(join(out.database, '..')).mode & 0o777, 0o700)
  assert.equal(statSync(out.database).mode & 0o777, 0o600)
})

test('outside a repository init fails with a clear error and exit code 3', async () => {
  await using home = tmpDir()
  const result = await runCli(['init'], { cwd: home.path, env: isolatedEnv(home.path) })
  assert.equal(result.code, 3)
  assert.match(result.stderr, /not inside a Git repository/)
})

test('a data directory that cannot be created is a clear error, not a crash', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  writeFileSync(join(home.path, 'a-file'), '')
  const result = await runCli(['init'], {
    cwd: repo.path,
    env: isolatedEnv(home.path, { SANGAM_HOME: join(home.path, 'a-file', 'sangam') }),
  })
  assert.equal(result.code, 7)
  assert.match(result.stderr, /cannot use data directory .*a-file.*SANGAM_HOME/)
})

test('a read-only data directory is a clear error, not a crash', { skip: !canMountReadOnly() }, async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const data = join(home.path, 'ro')
  mkdirSync(data)
  // Root ignores permission bits, so the directory is made read-only with a private bind mount.
  const script = `mount --bind -o ro "$1" "$1" && exec "$2" "$3" init`
  const result = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', data, process.execPath, cliEntry], {
    cwd: repo.path,
    env: { ...isolatedEnv(home.path), SANGAM_HOME: data } as NodeJS.ProcessEnv,
    encoding: 'utf8',
  })
  assert.equal(result.status, 7, result.stderr)
  assert.match(result.stderr, /(cannot use data directory|cannot open).*(read-only|Read-only|readonly)/i)
})

function canMountReadOnly(): boolean {
  return process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0
}

test('a database path that is a directory is a clear error naming the file', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const first = await runCliJson<InitJson>(['init'], { cwd: repo.path, env: isolatedEnv(home.path) })
  rmSync(first.database)
  mkdirSync(first.database)
  const result = await runCli(['init'], { cwd: repo.path, env: isolatedEnv(home.path) })
  assert.equal(result.code, 7, result.stderr)
  assert.match(result.stderr, /cannot open .*sangam\.db/)
})
