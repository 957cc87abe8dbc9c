import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { laneProject } from './helpers/lane-fixture.ts'
import { git } from './helpers/tmp-git-repo.ts'

const settings = join('.claude', 'settings.json')

test('D212: untracked project-level hook files go with every lane and never make main dirty', async () => {
  await using p = await laneProject()
  assert.equal((await p.cli(['install-hooks'])).code, 0)
  const hooks = readFileSync(join(p.repo.path, settings), 'utf8')
  assert.match(hooks, /agent-hook-main/)
  assert.match(git(p.repo.path, 'status', '--porcelain'), /\.claude\//, 'install-hooks leaves it untracked')

  const alice = await p.lane('alice', 'claude')
  assert.equal(readFileSync(join(alice, settings), 'utf8'), hooks, "the lane's Claude Code finds the hooks")
  assert.equal(existsSync(join(alice, 'AGENTS.md')), false, 'the hooks brief the agent: no generated file')
  assert.equal(git(p.repo.path, 'status', '--porcelain'), '', 'the main worktree is clean')
  assert.equal(git(alice, 'status', '--porcelain'), '', 'and so is the lane')
  assert.match(
    readFileSync(join(p.repo.path, '.git', 'info', 'exclude'), 'utf8'),
    /^\/\.claude\/settings\.json$/m,
  )

  p.write(alice, 'src/app.js', 'export function greet() {\n  return "hi"\n}\n')
  const synced = await p.json<{ outcome: string }>(['sync'], { cwd: alice, code: 0 })
  assert.equal(synced.outcome, 'published-direct', 'the untracked hooks file no longer refuses main-dirty')
  assert.equal(git(p.repo.path, 'show', 'main:src/app.js'), 'export function greet() {\n  return "hi"\n}')
  assert.equal(
    git(p.repo.path, 'ls-tree', '-r', '--name-only', 'main', '.claude', '.codex'),
    '',
    'never published',
  )
  assert.equal(readFileSync(join(p.repo.path, settings), 'utf8'), hooks, 'the main worktree keeps its file')
})

test('D212: hook files that main tracks are left to git: nothing excluded, nothing copied', async () => {
  await using p = await laneProject()
  assert.equal((await p.cli(['install-hooks'])).code, 0)
  p.commit(p.repo.path, 'share the hooks')
  const bob = await p.lane('bob', 'claude')
  assert.equal(git(bob, 'ls-files', settings), '.claude/settings.json', 'the lane has it from git')
  assert.doesNotMatch(readFileSync(join(p.repo.path, '.git', 'info', 'exclude'), 'utf8'), /\.claude|\.codex/)
  assert.equal(git(bob, 'status', '--porcelain'), '')
})
