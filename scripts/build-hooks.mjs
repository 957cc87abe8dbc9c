#!/usr/bin/env node
// Bundles each hook entry point (src/hooks/*-main.ts) with everything it reaches into one CommonJS
// file, dist/hooks/<entry>.cjs, the file installed hooks run. Claude Code and Codex start the
// agent hook on every edit, and Node 20 loads ES modules one file at a time, each module's imports
// resolved up front; one CommonJS file whose modules initialise on first use (dynamic imports and
// packages included) starts far faster (bench/hooks.ts, docs/performance.md).
//
// better-sqlite3's JavaScript is bundled too; its native addon is found by the `bindings` package,
// which walks the call stack and stats a dozen candidate paths. In the bundle, `bindings` is a shim
// that requires the addon where better-sqlite3's own build puts it, and falls back to the real
// search (from better-sqlite3's directory, as better-sqlite3 itself would) if it is not there.
//
// Node compiles the whole file on every start, whatever runs, so what the edit path never runs
// still costs. The team server's HTTP client validates answers with zod, 800 KB that would be
// most of the file: it is its own file, dist/hooks/sync-http.cjs, which its dynamic import loads
// on the first request. SangamError is a third file both require, so that `instanceof` agrees
// across them (an unreachable server is told apart by it, services/sync-unreachable.ts).
import { join } from 'node:path'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outdir = join(root, 'dist', 'hooks')

/** Modules that become their own file, required at run time by the bundles that import them. */
const ownFiles = {
  'sync-http': join(root, 'src', 'services', 'sync-http.ts'),
  'sangam-error': join(root, 'src', 'shared', 'sangam-error.ts'),
}

/** Resolves an import of one of `ownFiles` (other than the file being built) to its `.cjs` file. */
function requireOwnFiles(except) {
  return {
    name: 'own-files',
    setup(builder) {
      builder.onResolve({ filter: /\.ts$/ }, ({ path, resolveDir }) => {
        const target = join(resolveDir, path)
        const name = Object.keys(ownFiles).find((key) => ownFiles[key] === target && key !== except)
        return name === undefined ? undefined : { path: `./${name}.cjs`, external: true }
      })
    },
  }
}

const addonLookup = `
const { dirname, join } = require('node:path')
module.exports = (name) => {
  const root = dirname(require.resolve('better-sqlite3/package.json'))
  try {
    return require(join(root, 'build', 'Release', name))
  } catch {
    return require('bindings')({ bindings: name, module_root: root })
  }
}`

/** Replaces better-sqlite3's `bindings` with `addonLookup`. */
const directAddon = {
  name: 'direct-addon',
  setup(builder) {
    builder.onResolve({ filter: /^bindings$/ }, ({ importer }) =>
      importer.includes('/better-sqlite3/') ? { path: 'bindings', namespace: 'direct-addon' } : undefined,
    )
    builder.onLoad({ filter: /.*/, namespace: 'direct-addon' }, () => ({
      contents: addonLookup,
      loader: 'js',
    }))
  },
}

const bundles = [
  ...['agent-hook-main', 'pre-push-main'].map((name) => ({
    name,
    entry: join(root, 'src', 'hooks', `${name}.ts`),
  })),
  ...Object.entries(ownFiles).map(([name, entry]) => ({ name, entry })),
]

for (const { name, entry } of bundles) {
  await build({
    entryPoints: [entry],
    outfile: join(outdir, `${name}.cjs`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['bindings', 'better-sqlite3/package.json'],
    // A dynamic import of one of `ownFiles` becomes a require: no ES-module loader for one file.
    supported: { 'dynamic-import': false },
    // A CommonJS file has no import.meta; store/lease-regex.ts requires picomatch relative to it.
    banner: { js: 'var importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': 'importMetaUrl' },
    plugins: [requireOwnFiles(name), directAddon],
    logLevel: 'warning',
  })
}
