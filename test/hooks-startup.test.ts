import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { test } from 'node:test'
import { moduleTrace } from './helpers/module-trace.ts'
import { isolatedEnv, projectRoot, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { claudeEdit } from './hooks-agent-run.ts'

/**
 * What the edit hook loads decides its start-up time, which Claude Code pays on every edit. This
 * records every module a real hook process loads and pins what must stay off that path. It runs
 * tsc's unbundled ES-module build of the entry, whose modules are files a loader hook can see; the
 * installed `agent-hook-main.bundle.cjs` is the same module graph in one file. Timing itself is
 * measured by bench/hooks.ts, never asserted here.
 */
const unbundledEntry = join(projectRoot, 'dist', 'hooks', 'agent-hook-main.js')

async function modulesLoaded(): Promise<string[]> {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  await runCliJson(['init'], { cwd: repo.path, env })
  for (const pattern of ['README.md', 'docs/**']) {
    await runCliJson(['claim', pattern, '-r', 'docs'], {
      cwd: repo.path,
      env: { ...env, SANGAM_USER: 'bob@example.com' },
    })
  }
  const trace = moduleTrace(home.path)
  for (const file of ['README.md', 'free.ts']) {
    const run = spawnSync(process.execPath, ['--import', trace.importFlag, unbundledEntry, 'claude'], {
      cwd: repo.path,
      env: env as NodeJS.ProcessEnv,
      input: JSON.stringify(claudeEdit(repo.path, join(repo.path, file))),
      encoding: 'utf8',
    })
    assert.equal(run.status, 0, run.stderr)
  }
  // The hook itself requires nothing through CommonJS now; this shows the trace would see it.
  const control = spawnSync(process.execPath, ['--import', trace.importFlag, '-e', "require('node:os')"])
  assert.equal(control.status, 0, control.stderr?.toString())
  return trace.loaded()
}

const loaded = modulesLoaded()

test('the edit hook loads neither commander nor the MCP SDK nor the CLI', async () => {
  const urls = await loaded
  assert.ok(
    urls.some((url) => url.endsWith('/dist/store/connection.js')),
    'the trace sees the store being loaded',
  )
  assert.deepEqual(
    urls.filter((url) => /\/node_modules\/(commander|@modelcontextprotocol)\/|\/dist\/cli\//.test(url)),
    [],
  )
})

test('the edit hook loads no picomatch: globs are matched by the expression stored with their lease', async () => {
  const urls = await loaded
  assert.ok(
    urls.some((url) => url === 'require:node:os'),
    'the trace sees CommonJS requires',
  )
  assert.deepEqual(
    urls.filter((url) => url.includes('picomatch')),
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

test('the installed hook files hold no secret scrubber: the write paths they share files with never run there', () => {
  // The scrubber compiles hundreds of patterns as it loads; the lane and option code the edit hook
  // bundles (for the brief) imports the free-text rule, which only the CLI and MCP ever call.
  for (const file of ['agent-hook-main.bundle.cjs', 'pre-push-main.bundle.cjs']) {
    const bundle = readFileSync(join(projectRoot, 'dist', 'hooks', file), 'utf8')
    assert.doesNotMatch(bundle, /gitleaks|function scrubSecrets/, file)
  }
})

test('the installed edit hook file holds no zod; the sync HTTP client, its own file, shares SangamError', async () => {
  const hooks = join(projectRoot, 'dist', 'hooks')
  // Node compiles every byte of the file it starts, so zod must be absent, not just never run.
  assert.doesNotMatch(readFileSync(join(hooks, 'agent-hook-main.bundle.cjs'), 'utf8'), /node_modules\/zod\//)
  const load = createRequire(join(hooks, 'agent-hook-main.bundle.cjs'))
  const { SyncHttpClient } = load('./sync-http.cjs')
  // The very module the edit hook's file requires, as Node caches it by path.
  const { SangamError } = load('./sangam-error.cjs')
  // A port that was free a moment ago refuses the connection: an unreachable server.
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  const client = new SyncHttpClient({ url: `http://127.0.0.1:${port}`, projectId: 'p', key: 'k' })
  const error = await client.health().then(
    () => null,
    (failure: unknown) => failure,
  )
  assert.ok(error instanceof SangamError, `an unreachable server throws the shared SangamError: ${error}`)
  assert.equal((error as { data: { unreachable?: boolean } }).data.unreachable, true)
})
