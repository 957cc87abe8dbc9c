#!/usr/bin/env node
// Runs every *.test.ts under src/, test/ and server/test/ with node's test runner and tsx as the loader.
// Node 20 neither expands a quoted glob nor finds .ts files by itself, so the list is built here.
// Usage: node scripts/run-tests.mjs [path-substring ...]   (filters the list, e.g. `store/`)
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const filters = process.argv.slice(2)

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else if (entry.name.endsWith('.test.ts')) yield relative(root, path)
  }
}

const files = ['src', 'test', 'server/test']
  .flatMap((dir) => [...walk(join(root, dir))])
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort()
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`)
  process.exit(1)
}
// The timeout bounds each file as a whole (the runner runs every file as one test). 40 minutes:
// test/packed-install.test.ts installs the packed package globally twice and through npx, and
// serve's runtime once; its steps carry tighter timeouts of their own.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=2400000', ...files],
  { cwd: root, stdio: 'inherit' },
)
process.exit(result.status ?? 1)
