import assert from 'node:assert/strict'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { projectRoot, runCli } from './helpers/run-cli.ts'
import { tmpDir } from './helpers/tmp-git-repo.ts'

/**
 * `sangam` runs through a launcher that turns on Node's compile cache beside the CLI's chunks
 * (scripts/build-cli.mjs, D398): a command after the first runs code compiled once, not compiled
 * again. Node says what its cache did when NODE_DEBUG_NATIVE names it; the time saved is
 * bench/cli-startup.ts's to measure.
 */
test('a command runs the CLI through Node’s compile cache, kept beside the bundle', async () => {
  await using home = tmpDir()
  const env = {
    PATH: process.env.PATH,
    HOME: home.path,
    SANGAM_HOME: home.path,
    NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
  }
  const runs = []
  for (let i = 0; i < 2; i++) runs.push(await runCli(['--version'], { cwd: home.path, env }))
  for (const run of runs) {
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stdout, /^\d+\.\d+\.\d+/)
  }
  assert.match(runs[1]?.stderr ?? '', /dist\/cli\/compile-cache\/.*sangam-cli\.js/)
  assert.match(
    runs[1]?.stderr ?? '',
    /code cache for ESM file:\/\/\S*\/dist\/cli\/sangam-cli\.js was accepted/,
  )
})

/**
 * The short commands run from one CommonJS bundle of the CLI through V8's code cache instead
 * (D470), kept beside the bundle under a name carrying its hash. A run must work whatever state
 * that cache is in: missing, valid, or damaged.
 */
const bundleCache = join(
  projectRoot,
  'dist',
  'cli',
  /'(sangam-cli\.[0-9a-f]{16}\.v8cache)'/.exec(
    readFileSync(join(projectRoot, 'dist', 'cli', 'sangam-cli.cjs'), 'utf8'),
  )?.[1] ?? 'missing',
)

/** `who-has` outside any project: a short command that answers at once (an error code, as JSON). */
async function shortRun(): Promise<string> {
  await using home = tmpDir()
  const run = await runCli(['who-has', 'src/a.ts', '--json'], {
    cwd: home.path,
    env: {
      PATH: process.env.PATH,
      HOME: home.path,
      SANGAM_HOME: home.path,
      NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
    },
  })
  assert.notEqual(run.stdout, '', run.stderr)
  assert.doesNotMatch(run.stderr, /sangam-cli\.js/, 'no ES-module chunk of the CLI was loaded')
  return (JSON.parse(run.stdout) as { error: { code: string } }).error.code
}

test('a short command writes the bundle’s code cache, and the next run uses it as it is', async () => {
  assert.notEqual(bundleCache.endsWith('missing'), true, 'the launcher names its cache')
  const expected = await shortRun()
  const written = statSync(bundleCache)
  assert.ok(written.size > 0)
  assert.equal(await shortRun(), expected)
  assert.equal(statSync(bundleCache).mtimeMs, written.mtimeMs, 'an accepted cache is not rewritten')
})

test('a damaged code cache of the bundle is compiled past and replaced', async () => {
  const expected = await shortRun()
  writeFileSync(bundleCache, Buffer.from('not V8 code cache data'))
  assert.equal(await shortRun(), expected)
  assert.ok(statSync(bundleCache).size > 100, 'a fresh cache replaced the damaged one')
})
