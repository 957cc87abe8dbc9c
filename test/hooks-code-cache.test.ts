import assert from 'node:assert/strict'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { projectRoot } from './helpers/run-cli.ts'
import { tmpDir } from './helpers/tmp-git-repo.ts'
import { agentHookEntry, runAgentHook } from './hooks-agent-run.ts'

/**
 * The installed hook file compiles its bundle with V8's code cache, kept beside the bundle under
 * a name carrying the bundle's hash (scripts/build-bundles.mjs). A hook run must work whatever
 * state that cache is in: missing, valid, or damaged.
 */
const cacheFile = join(
  projectRoot,
  'dist',
  'hooks',
  /'(agent-hook-main\.[0-9a-f]{16}\.v8cache)'/.exec(readFileSync(agentHookEntry, 'utf8'))?.[1] ?? 'missing',
)

/** A run that needs no project: the payload is not a hook's, so the hook fails open at once. */
async function hookRun(): Promise<string> {
  await using home = tmpDir()
  const run = await runAgentHook('claude', null, {
    cwd: home.path,
    env: { PATH: process.env.PATH, HOME: home.path, SANGAM_HOME: home.path },
    stdin: 'not a payload',
  })
  assert.equal(run.code, 0, run.stderr)
  return run.stderr
}

test('a run writes the code cache beside the bundle, and the next run uses it as it is', async () => {
  assert.notEqual(cacheFile.endsWith('missing'), true, 'the launcher names its cache')
  const expected = await hookRun()
  const written = statSync(cacheFile)
  assert.ok(written.size > 0)
  assert.equal(await hookRun(), expected)
  assert.equal(statSync(cacheFile).mtimeMs, written.mtimeMs, 'an accepted cache is not rewritten')
})

test('a damaged code cache is compiled past and replaced', async () => {
  const expected = await hookRun()
  writeFileSync(cacheFile, Buffer.from('not V8 code cache data'))
  assert.equal(await hookRun(), expected)
  assert.ok(statSync(cacheFile).size > 100, 'a fresh cache replaced the damaged one')
})
