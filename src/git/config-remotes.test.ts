import assert from 'node:assert/strict'
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { gitCallLog } from '../../test/helpers/git-call-log.ts'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { pushRemoteName, remoteNames } from './config-remotes.ts'

/** `remoteNames` with PATH's git logging its calls: the names, and whether git was asked. */
function named(cwd: string): { names: string[]; askedGit: boolean } {
  const saved = process.env.PATH
  const dir = mkdtempSync(join(tmpdir(), 'sangam-git-calls-'))
  const log = gitCallLog(dir)
  process.env.PATH = log.path
  try {
    const names = remoteNames(cwd)
    return { names, askedGit: log.calls().length > 0 }
  } finally {
    process.env.PATH = saved
    rmSync(dir, { recursive: true, force: true })
  }
}

const gitRemote = (cwd: string): string[] =>
  [
    ...git(cwd, 'remote')
      .split('\n')
      .filter((line) => line !== ''),
  ].sort()

test('remotes are read from the config file as git remote lists them, with no git process', async () => {
  await using repo = tmpGitRepo()
  repo.commit('one')
  assert.deepEqual(named(repo.path), { names: [], askedGit: false })
  assert.equal(pushRemoteName(repo.path), null)
  git(repo.path, 'remote', 'add', 'upstream', '/nowhere/upstream.git')
  git(repo.path, 'remote', 'add', 'origin', '/nowhere/origin.git')
  assert.deepEqual(named(repo.path), { names: gitRemote(repo.path), askedGit: false })
  assert.equal(pushRemoteName(repo.path), 'origin')
  git(repo.path, 'remote', 'remove', 'origin')
  assert.equal(pushRemoteName(repo.path), 'upstream')
  // A header with no key is no remote to git either.
  appendFileSync(join(repo.path, '.git', 'config'), '[remote "empty"]\n')
  assert.deepEqual(named(repo.path), { names: gitRemote(repo.path), askedGit: false })
  // A linked worktree reads the common config.
  git(repo.path, 'worktree', 'add', '-q', join(repo.path, 'wt'), '-b', 'side')
  assert.deepEqual(named(join(repo.path, 'wt')).names, ['upstream'])
})

test('an include or the old [remote.name] form is left to git, which answers', async () => {
  await using repo = tmpGitRepo()
  repo.commit('one')
  const extra = join(repo.path, 'extra.gitconfig')
  appendFileSync(extra, '[remote "included"]\n\turl = /nowhere/included.git\n')
  git(repo.path, 'config', 'include.path', extra)
  assert.deepEqual(named(repo.path), { names: ['included'], askedGit: true })
  git(repo.path, 'config', '--unset', 'include.path')
  appendFileSync(join(repo.path, '.git', 'config'), '[remote.Old]\n\turl = /nowhere/old.git\n')
  const old = named(repo.path)
  assert.equal(old.askedGit, true)
  assert.deepEqual(old.names, gitRemote(repo.path))
})
