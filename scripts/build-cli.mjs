#!/usr/bin/env node
// Bundles the CLI (src/cli/main.ts, with what it reaches) into ES modules in dist/cli/: main.js,
// the file `sangam` runs, replaces tsc's, and every command's implementation, still loaded by
// `import()` when it runs (D62), becomes a chunk beside it. Node 20 resolves and loads ES modules
// one file at a time, so a `sangam sync` that read 95 files of tsc output reads about 40 chunks
// (bench/cli-startup.ts, bench/lanes.ts, docs/performance.md).
//
// The chunks sit in dist/cli/ itself, not in a folder of their own: modules find files relative to
// `import.meta.url` (config/version.ts the package.json two levels up, serve/local-server.ts
// dist/server, ui/static-files.ts the browser libraries), which holds from dist/cli/ as from
// dist/<dir>/. The capture worker is an entry of its own for the same reason: memory/services/
// parallel.ts starts `./capture-worker.js` beside itself. ES modules keep `import.meta` whole, so
// nothing is rewritten; CommonJS packages (commander) get a `require` from `createRequire`.
//
// Packages stay outside the bundle where they must be found at run time: miniflare (workerd's
// binary and its own worker scripts; not installed with the CLI, serve/serve-runtime.ts finds it),
// ws (optional native add-ons it looks for). Without this step, tsc's output in dist/ runs as it is, slower.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { englishOnlyZod } from './esbuild-plugins.mjs'

const root = new URL('..', import.meta.url).pathname
const outdir = join(root, 'dist', 'cli')
/** What esbuild names a chunk: an upper-case hash tsc's kebab-case file names never have. */
const chunkFile = /-[A-Z0-9]{8}\.js$/

for (const name of readdirSync(outdir)) if (chunkFile.test(name)) rmSync(join(outdir, name))
await build({
  entryPoints: {
    main: join(root, 'src', 'cli', 'main.ts'),
    'capture-worker': join(root, 'src', 'memory', 'services', 'capture-worker.ts'),
  },
  outdir,
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: ['miniflare', 'ws'],
  banner: {
    js: "import { createRequire as sangamCreateRequire } from 'node:module'; const require = sangamCreateRequire(import.meta.url);",
  },
  plugins: [englishOnlyZod],
  logLevel: 'warning',
})
