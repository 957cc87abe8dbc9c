#!/usr/bin/env node
// Bundles each hook entry point (src/hooks/*-main.ts) with everything it reaches into one CommonJS
// file, dist/hooks/<entry>.cjs, the file installed hooks run. Claude Code and Codex start the
// agent hook on every edit, and Node 20 loads ES modules one file at a time, each module's imports
// resolved up front; one CommonJS file whose modules initialise on first use (dynamic imports and
// packages included) starts far faster (bench/hooks.ts, docs/performance.md). better-sqlite3 is a
// native addon and stays an ordinary require.
import { join } from 'node:path'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname

for (const name of ['agent-hook-main', 'pre-push-main']) {
  await build({
    entryPoints: [join(root, 'src', 'hooks', `${name}.ts`)],
    outfile: join(root, 'dist', 'hooks', `${name}.cjs`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3'],
    logLevel: 'warning',
  })
}
