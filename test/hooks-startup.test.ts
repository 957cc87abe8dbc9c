import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { isolatedEnv, projectRoot, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { claudeEdit } from './hooks-agent-run.ts'

/**
 * What the edit hook loads decides its start-up time, which Claude Code pays on every edit. This
 * records every module a real hook process loads and pins what must stay off that path. It runs
 * tsc's unbundled ES-module build of the entry, whose modules are files a loader hook can see; the
 * installed `.cjs` bundle is the same module graph in one file. Timing itself is measured by
 * bench/hooks.ts, never asserted here.
 */
const unbundledEntry = join(projectRoot, 'dist', 'hooks', 'agent-hook-main.js')

async function modulesLoaded(): Promise<string[]> {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  await runCliJson(['init'], { cwd: repo.path, env })
  await runCliJson(['claim', 'README.md', '-r', 'docs'], {
    cwd: repo.path,
    env: { ...env, SANGAM_USER: 'bob@example.com' },
  })
  const log = join(home.path, 'loaded.txt')
  const hooks = join(home.path, 'trace-hooks.mjs')
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n')
  return next(url, context)
}`,
  )
  const register = join(home.path, 'register.mjs')
  writeFileSync(
    register,
    `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(hooks).href)})\n`,
  )
  writeFileSync(log, '')
  for (const file of ['README.md', 'free.ts']) {
    const run = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(register).href, unbundledEntry, 'claude'],
      {
        cwd: repo.path,
        env: env as NodeJS.ProcessEnv,
        input: JSON.stringify(claudeEdit(repo.path, join(repo.path, file))),
        encoding: 'utf8',
      },
    )
    assert.equal(run.status, 0, run.stderr)
  }
  return [
    ...new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((url) => url !== ''),
    ),
  ]
}

const loaded = modulesLoaded()

test('the edit hook loads neither commander nor the MCP SDK nor the CLI', async () => {
  const urls = await loaded
  assert.ok(
    urls.some((url) => url.includes('/better-sqlite3/')),
    'the trace sees the store being loaded',
  )
  assert.deepEqual(
    urls.filter((url) => /\/node_modules\/(commander|@modelcontextprotocol)\/|\/dist\/cli\//.test(url)),
    [],
  )
})

test('the edit hook loads no zod', async () => {
  const urls = await loaded
  assert.deepEqual(
    urls.filter((url) => url.includes('/node_modules/zod/')),
    [],
  )
})
