import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { installedElsewhere, isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/**
 * Issue 20 item 18 on one machine: the files sangam writes into a checkout (install-hooks' hook
 * files, init's .mcp.json) are nobody's work. Two worktrees install the hooks from sangam at two
 * paths (two installs, as two machines have), so their files differ: counted as work, they would
 * collide in `ready` and show as uncommitted in `targets`.
 */

interface Verdict {
  latent: number
  conflicted: number
  branches: { branch: string | null; uncommitted: number | null; collidesWith: { branch: string | null }[] }[]
}

interface Targets {
  worktrees: { path: string; uncommitted: number | null }[]
}

async function world() {
  const repo = tmpGitRepo({ commit: true })
  const home = repo.path.replace(/\/repo$/, '')
  const env = isolatedEnv(home, { SANGAM_USER: 'asha@example.com' })
  repo.write('src/app.ts', 'export const a = 1\n')
  repo.commit('base')
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const worktree = (name: string) => {
    const path = join(home, name)
    git(repo.path, 'worktree', 'add', '-q', '-b', name, path)
    return path
  }
  const elsewhere = installedElsewhere(home)
  return {
    repo,
    env,
    worktree,
    /** `install-hooks` in `cwd`, by this build or by the same build installed at another path. */
    installHooks: async (cwd: string, install: 'here' | 'elsewhere') => {
      const result = await runCli(['install-hooks'], {
        cwd,
        env,
        entry: install === 'elsewhere' ? elsewhere : undefined,
      })
      assert.equal(result.code, 0, result.stderr)
    },
    ready: () => runCliJson<Verdict>(['ready'], { cwd: repo.path, env }),
    targets: () => runCliJson<Targets>(['targets'], { cwd: repo.path, env }),
  }
}

const uncommittedOf = (targets: Targets, path: string) =>
  targets.worktrees.find((worktree) => worktree.path === path)?.uncommitted

test("D311: sangam's hook files count in neither `ready` nor `targets`, kept out of git or not", async () => {
  const w = await world()
  await using _ = w.repo
  const one = w.worktree('one')
  const two = w.worktree('two')
  await w.installHooks(one, 'here')
  await w.installHooks(two, 'elsewhere')
  const settings = join('.claude', 'settings.json')
  assert.notEqual(readFileSync(join(one, settings), 'utf8'), readFileSync(join(two, settings), 'utf8'))
  writeFileSync(join(one, 'src/app.ts'), 'export const a = 2\n')

  const expectNoOwnWork = async (when: string) => {
    const verdict = await w.ready()
    assert.deepEqual(
      verdict.branches.map((lane) => [lane.branch, lane.uncommitted, lane.collidesWith.length]),
      [
        ['one', 1, 0],
        ['two', 0, 0],
      ],
      when,
    )
    assert.equal(verdict.latent + verdict.conflicted, 0, when)
    const targets = await w.targets()
    assert.deepEqual(
      [w.repo.path, one, two].map((path) => uncommittedOf(targets, path)),
      [0, 1, 0],
      when,
    )
  }
  await expectNoOwnWork('kept out of git by install-hooks')

  // A clone whose hooks an older sangam installed has no exclude: the files show in git status,
  // and are still nobody's work.
  writeFileSync(join(w.repo.path, '.git', 'info', 'exclude'), '')
  assert.match(git(two, 'status', '--porcelain'), /^\?\? \.claude\/$/m)
  await expectNoOwnWork('without the exclude')

  // The human of `two` adds a hook of their own: now the file is their work.
  const config = JSON.parse(readFileSync(join(two, settings), 'utf8')) as { hooks: Record<string, unknown[]> }
  config.hooks.Stop = [{ hooks: [{ type: 'command', command: 'echo mine' }] }, ...(config.hooks.Stop ?? [])]
  writeFileSync(join(two, settings), `${JSON.stringify(config, null, 2)}\n`)
  assert.equal(uncommittedOf(await w.targets(), two), 1)
  assert.equal((await w.ready()).branches.find((lane) => lane.branch === 'two')?.uncommitted, 1)
})

test('D311: a tracked settings file that only sangam changed is not work, and git status still shows it', async () => {
  const w = await world()
  await using _ = w.repo
  const settings = join('.claude', 'settings.json')
  w.repo.write(settings, `${JSON.stringify({ permissions: { allow: ['Bash(npm test)'] } }, null, 2)}\n`)
  w.repo.commit('team settings')
  const one = w.worktree('one')
  await w.installHooks(one, 'elsewhere')
  assert.match(git(one, 'status', '--porcelain'), /^ ?M \.claude\/settings\.json$/m, 'never hidden')
  assert.equal(uncommittedOf(await w.targets(), one), 0)
  assert.equal((await w.ready()).branches.find((lane) => lane.branch === 'one')?.uncommitted, 0)
  // The team's own settings changed beside sangam's entries: that is work.
  const config = JSON.parse(readFileSync(join(one, settings), 'utf8')) as Record<string, unknown>
  writeFileSync(join(one, settings), `${JSON.stringify({ ...config, model: 'opus' }, null, 2)}\n`)
  assert.equal(uncommittedOf(await w.targets(), one), 1)
})
