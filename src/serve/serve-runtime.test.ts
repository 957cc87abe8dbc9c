import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { projectRoot } from '../../test/helpers/run-cli.ts'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import {
  loadServeRuntime,
  locateServeRuntime,
  serveRuntimePackage,
  serveRuntimeVersion,
} from './serve-runtime.ts'

test('serve installs exactly the runtime version the checkout develops and tests with', () => {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
    devDependencies: Record<string, string>
  }
  assert.equal(manifest.devDependencies[serveRuntimePackage], serveRuntimeVersion)
  assert.equal(manifest.dependencies[serveRuntimePackage], undefined, 'the CLI does not install it')
})

test('in the checkout the runtime is found beside sangam and loads', async () => {
  await using home = tmpDir()
  assert.equal(locateServeRuntime(home.path)?.source, 'beside-sangam')
  assert.equal(typeof (await loadServeRuntime(home.path)).Miniflare, 'function')
})
