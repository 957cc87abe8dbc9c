import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { gitCallLog } from '../../test/helpers/git-call-log.ts'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { findMainBranch, readHead } from './branch.ts'
import { commitFromFiles, openRefFiles } from './ref-files.ts'

/** What git itself says of HEAD and the main branch, for comparison. */
function gitSays(cwd: string) {
  const commit = git(cwd, 'rev-parse', '--verify', '--quiet', 'HEAD')
  const ref = git(cwd, 'symbolic-ref', '--quiet', 'HEAD')
  return { branch: ref.startsWith('refs/heads/') ? ref.slice(11) : null, commit }
}

/** Runs `body` with PATH's git logging its calls, and answers the calls it made. */
function gitCallsOf(body: () => void): string[][] {
  const saved = process.env.PATH
  const dir = mkdtempSync(join(tmpdir(), 'sangam-git-calls-'))
  const log = gitCallLog(dir)
  process.env.PATH = log.path
  try {
    body()
    return log.calls()
  } finally {
    process.env.PATH = saved
    rmSync(dir, { recursive: true, force: true })
  }
}

test('ref files: HEAD and the main branch as git says, loose then packed, with no git process', async () => {
  await using repo = tmpGitRepo()
  repo.commit('one')
  git(repo.path, 'branch', 'trunk')
  let head = readHead(repo.path)
  const calls = gitCallsOf(() => {
    head = readHead(repo.path)
    assert.deepEqual(findMainBranch(repo.path), { name: 'main', commit: head.commit, local: true })
  })
  assert.deepEqual(calls, [])
  assert.deepEqual(head, gitSays(repo.path))
  git(repo.path, 'pack-refs', '--all')
  assert.deepEqual(readHead(repo.path), gitSays(repo.path))
  // A loose ref newer than its packed line wins, as for git.
  repo.commit('two')
  assert.deepEqual(readHead(repo.path), gitSays(repo.path))
  assert.equal(findMainBranch(repo.path)?.commit, git(repo.path, 'rev-parse', 'main'))
})

test('ref files: a linked worktree’s HEAD, a detached one, an unborn branch and origin/HEAD', async () => {
  await using repo = tmpGitRepo()
  const first = repo.commit('one')
  const lane = join(realpathSync(join(repo.path, '..')), 'lane')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane', lane)
  repo.commit('two')
  assert.deepEqual(readHead(lane), { branch: 'lane', commit: first })
  git(lane, 'checkout', '-q', '--detach')
  assert.deepEqual(readHead(lane), { branch: null, commit: first })
  git(lane, 'checkout', '-q', '--orphan', 'fresh')
  assert.deepEqual(readHead(lane), { branch: 'fresh', commit: null })
  // origin/HEAD names the branch work lands on, here one with no local branch of its name.
  git(repo.path, 'update-ref', 'refs/remotes/origin/develop', first)
  git(repo.path, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/develop')
  assert.deepEqual(findMainBranch(lane), { name: 'origin/develop', commit: first, local: false })
})

test('ref files: GIT_DIR, a bare repository and reftable are left to git, which answers the same', async () => {
  await using repo = tmpGitRepo()
  const commit = repo.commit('one')
  // GIT_DIR set: only git knows which repository is meant.
  process.env.GIT_DIR = join(repo.path, '.git')
  try {
    assert.equal(openRefFiles(repo.path), null)
    const calls = gitCallsOf(() => assert.deepEqual(readHead(repo.path), { branch: 'main', commit }))
    assert.equal(calls.length, 1)
  } finally {
    delete process.env.GIT_DIR
  }
  // A bare repository has no `.git` to read.
  const bare = join(realpathSync(join(repo.path, '..')), 'bare.git')
  git(repo.path, 'clone', '-q', '--bare', repo.path, bare)
  assert.equal(openRefFiles(bare), null)
  assert.deepEqual(readHead(bare), { branch: 'main', commit })
  assert.equal(findMainBranch(bare)?.commit, commit)
  // The reftable format keeps refs in binary tables.
  mkdirSync(join(repo.path, '.git', 'reftable'))
  assert.equal(openRefFiles(repo.path), null)
  const calls = gitCallsOf(() => assert.deepEqual(readHead(repo.path), { branch: 'main', commit }))
  assert.equal(calls.length, 1)
})

test('ref files: a name resolves as rev-parse would, and what needs git (a tag, an id) says so', async () => {
  await using repo = tmpGitRepo()
  const first = repo.commit('one')
  git(repo.path, 'update-ref', 'refs/remotes/origin/develop', first)
  git(repo.path, 'tag', '-a', '-m', 'annotated', 'v1')
  const second = repo.commit('two')
  git(repo.path, 'pack-refs', '--all')
  assert.equal(commitFromFiles(repo.path, 'main'), second)
  assert.equal(commitFromFiles(repo.path, 'refs/heads/main'), second)
  assert.equal(commitFromFiles(repo.path, 'origin/develop'), first)
  assert.equal(commitFromFiles(repo.path, 'nothing-here'), null)
  assert.equal(commitFromFiles(repo.path, 'v1'), undefined, 'a tag may need peeling: git says')
  assert.equal(commitFromFiles(repo.path, first.slice(0, 8)), undefined, 'an object id: git says')
  assert.equal(commitFromFiles(repo.path, 'main~1'), undefined)
  // A tag of the same name comes first for git, so a branch never hides it.
  git(repo.path, 'tag', 'main', first)
  assert.equal(commitFromFiles(repo.path, 'main'), undefined)
})

test('ref files: the refs under a prefix, loose and packed, as for-each-ref lists them, with no git process', async () => {
  await using repo = tmpGitRepo()
  repo.commit('one')
  const forEachRef = () =>
    git(repo.path, 'for-each-ref', '--format=%(refname)', 'refs/sangam/')
      .split('\n')
      .filter((line) => line !== '')
  assert.deepEqual(openRefFiles(repo.path)?.names('refs/sangam/'), [])
  git(repo.path, 'update-ref', 'refs/sangam/backup/lane-a/1', 'HEAD')
  git(repo.path, 'update-ref', 'refs/sangam/backup/lane-b/2', 'HEAD')
  git(repo.path, 'pack-refs', '--all')
  git(repo.path, 'update-ref', 'refs/sangam/backup/lane-c/3', 'HEAD')
  git(repo.path, 'update-ref', 'refs/sangamish', 'HEAD')
  let names: string[] | null = null
  assert.deepEqual(
    gitCallsOf(() => {
      names = openRefFiles(repo.path)?.names('refs/sangam/') ?? null
    }),
    [],
  )
  assert.deepEqual(names, forEachRef())
  assert.equal(forEachRef().length, 3)
  // A packed ref deleted since is gone from both.
  git(repo.path, 'update-ref', '-d', 'refs/sangam/backup/lane-a/1')
  assert.deepEqual(openRefFiles(repo.path)?.names('refs/sangam/'), forEachRef())
})
