import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runCli } from './helpers/run-cli.ts'
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
