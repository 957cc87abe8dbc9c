import assert from 'node:assert/strict'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { workingStateKey } from './working-state-key.ts'

const head = 'a'.repeat(40)
const entry = (path: string, sub = 'N...') =>
  `1 .M ${sub} 100644 100644 100644 ${'b'.repeat(40)} ${'b'.repeat(40)} ${path}`

test('the key moves with the status entries, HEAD and each changed file, and with nothing else', async () => {
  await using repo = tmpGitRepo()
  repo.write('a.txt', 'one\n')
  repo.write('b.txt', 'two\n')
  const status = `# branch.oid ${head}\0# branch.ab +0 -0\0${entry('a.txt')}\0`
  const key = workingStateKey(repo.path, head, status, ['a.txt'])?.key
  assert.ok(key !== undefined)
  // A header line (ahead/behind moves with a fetch) and a file status does not list: the same key.
  const fetched = status.replace('+0 -0', '+0 -3')
  repo.write('b.txt', 'changed, but not listed\n')
  assert.equal(workingStateKey(repo.path, head, fetched, ['a.txt'])?.key, key)
  assert.notEqual(workingStateKey(repo.path, 'c'.repeat(40), status, ['a.txt'])?.key, key)
  assert.notEqual(workingStateKey(repo.path, head, `${status}? new.txt\0`, ['a.txt'])?.key, key)
  // The same size, saved as editors do (a new file renamed over it): its inode moves, whatever
  // the clock's tick (an edit within one tick of the key is git's racy case: working-state.ts).
  writeFileSync(join(repo.path, 'a.txt.tmp'), 'ONE\n')
  renameSync(join(repo.path, 'a.txt.tmp'), join(repo.path, 'a.txt'))
  assert.notEqual(workingStateKey(repo.path, head, status, ['a.txt'])?.key, key)
  // A changed path that is gone is part of the key as gone.
  assert.notEqual(workingStateKey(repo.path, head, status, ['a.txt', 'gone.txt'])?.key, key)
})

test('a submodule or a repository inside the worktree has no key', async () => {
  await using repo = tmpGitRepo()
  const status = `# branch.oid ${head}\0${entry('lib', 'SC..')}\0`
  assert.equal(workingStateKey(repo.path, head, status, ['lib']), null)
  mkdirSync(join(repo.path, 'nested', '.git'), { recursive: true })
  assert.equal(workingStateKey(repo.path, head, `? nested/\0`, ['nested/']), null)
})
