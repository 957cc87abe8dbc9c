import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { test } from 'node:test'
import { git } from '../../helpers/tmp-git-repo.ts'
import { openAgentLab } from '../agent-lab.ts'

/**
 * The pre-push gate `sangam install-hooks` put in place, with a real `git push` to a local bare
 * remote: the work of a real Claude Code session that edited a file another human then claimed
 * is refused; an unrelated push goes through.
 */
test('a push touching another human’s leased file is refused; an unrelated push goes through', async () => {
  await using lab = await openAgentLab()
  const remote = join(lab.home, 'remote.git')
  git(lab.home, 'init', '-q', '--bare', '-b', 'main', remote)
  git(lab.repo.path, 'remote', 'add', 'origin', remote)
  await lab.sangamJson(['install-hooks'])
  const push = (...args: string[]) =>
    spawnSync('git', ['push', 'origin', ...args], {
      cwd: lab.repo.path,
      env: lab.env as NodeJS.ProcessEnv,
      encoding: 'utf8',
    })
  assert.equal(push('main').status, 0, 'the first push has nothing leased to touch')

  const file = join(lab.repo.path, 'src', 'a.ts')
  const claude = await lab.claude('Set a to 2 in src/a.ts.', [
    { tool: 'Read', input: { file_path: file } },
    {
      tool: 'Edit',
      input: { file_path: file, old_string: 'a = 1', new_string: 'a = 2', replace_all: false },
    },
    { text: 'Done.' },
  ])
  assert.equal(claude.code, 0, claude.stderr)
  git(lab.repo.path, 'commit', '-q', '-am', 'a = 2')
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })
  const refused = push('main')
  assert.notEqual(refused.status, 0, refused.stderr)
  assert.match(
    refused.stderr,
    /sangam: push refused: it changes files leased by someone else:\n {2}src\/a\.ts: src\/a\.ts — bob@example\.com, until .*"rewriting the parser"/,
  )

  git(lab.repo.path, 'checkout', '-q', '-b', 'docs', 'origin/main')
  lab.repo.write('docs/notes.md', 'notes\n')
  git(lab.repo.path, 'add', '-A')
  git(lab.repo.path, 'commit', '-q', '-m', 'notes')
  const unrelated = push('docs')
  assert.equal(unrelated.status, 0, unrelated.stderr)
})
