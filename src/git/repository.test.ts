import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { git, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { recordedProjectIdFile, recordProjectId } from './recorded-project-id.ts'
import { openRepository } from './repository.ts'

test('the project is named by origin, else by the first remote git lists, else by its common dir', async () => {
  await using repo = tmpGitRepo()
  assert.equal(openRepository(repo.path).identitySource, 'common-dir')
  assert.equal(openRepository(repo.path).remote, null)
  git(repo.path, 'remote', 'add', 'zeta', 'git@example.com:team/zeta.git')
  git(repo.path, 'remote', 'add', 'my.fork', 'https://example.com/team/fork.git')
  // `git remote` lists by name: my.fork before zeta, whatever order they were added in.
  assert.equal(git(repo.path, 'remote').split('\n')[0], 'my.fork')
  assert.equal(openRepository(repo.path).remote, 'example.com/team/fork')
  git(repo.path, 'remote', 'add', 'origin', 'git@example.com:team/app.git')
  const named = openRepository(repo.path)
  assert.equal(named.remote, 'example.com/team/app')
  assert.equal(named.identitySource, 'remote')
})

test("the checkout's user is user.email, else user.name, as git config answers them", async () => {
  await using repo = tmpGitRepo({ user: 'asha@example.com' })
  assert.equal(openRepository(repo.path).user, 'asha@example.com')
  // A key given twice: git config --get answers the last value; so does the repository.
  git(repo.path, 'config', '--add', 'user.email', 'asha@work.example.com')
  assert.equal(git(repo.path, 'config', '--get', 'user.email'), 'asha@work.example.com')
  assert.equal(openRepository(repo.path).user, 'asha@work.example.com')
  // Without a local email the machine's global one (if any) answers, as it does for git itself.
  git(repo.path, 'config', '--unset-all', 'user.email')
  const globalEmail = gitOrNull(repo.path, 'config', '--get', 'user.email')
  assert.equal(openRepository(repo.path).user, globalEmail ?? 'Dev')
})

function gitOrNull(cwd: string, ...args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

test('a recorded id names the project whatever remote appears, changes or goes', async () => {
  await using repo = tmpGitRepo()
  const first = openRepository(repo.path)
  assert.equal(first.recordedProjectId, null)
  assert.equal(first.projectId, first.commonDirProjectId)
  assert.ok(recordProjectId(first.commonDir, first.projectId))
  git(repo.path, 'remote', 'add', 'origin', 'git@example.com:team/app.git')
  const named = openRepository(repo.path)
  assert.notEqual(named.derivedProjectId, first.projectId, 'a fresh clone would derive from the remote')
  assert.deepEqual(
    [named.projectId, named.recordedProjectId, named.identitySource],
    [first.projectId, first.projectId, 'common-dir'],
  )
  git(repo.path, 'remote', 'remove', 'origin')
  assert.equal(openRepository(repo.path).projectId, first.projectId)
  // An id neither derivation gives now (a teammate's, from a connection line) is `recorded`.
  assert.ok(recordProjectId(first.commonDir, 'prj_teammates00001'))
  assert.deepEqual(
    [openRepository(repo.path).projectId, openRepository(repo.path).identitySource],
    ['prj_teammates00001', 'recorded'],
  )
  writeFileSync(recordedProjectIdFile(first.commonDir), 'not an id\n')
  assert.equal(openRepository(repo.path).recordedProjectId, null, 'a file holding something else is ignored')
})
