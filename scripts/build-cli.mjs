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
//
// main.js itself is a launcher, written here: it turns on Node's compile cache for the process
// (module.enableCompileCache, in dist/cli/compile-cache/, beside the chunks: cached code runs as it
// is, so only whoever can write the package may write it) and then imports the CLI, bundled as
// sangam-cli.js. Without a cache Node compiles every chunk a command loads on every run; measured
// against one CommonJS bundle through the hooks' V8-cache launcher (scripts/build-bundles.mjs),
// the cached chunks start faster, since a command reads only the chunks it runs (D398,
// docs/performance.md). A directory we cannot write (a global install) only means no cache.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { englishOnlyZod, scrubberWithoutSideEffects } from './esbuild-plugins.mjs'
import { launcher } from './v8-cache-launcher.mjs'

const root = new URL('..', import.meta.url).pathname
const outdir = join(root, 'dist', 'cli')
/** What esbuild names a chunk: an upper-case hash tsc's kebab-case file names never have. */
const chunkFile = /-[A-Z0-9]{8}\.js$/

for (const name of readdirSync(outdir)) if (chunkFile.test(name)) rmSync(join(outdir, name))
rmSync(join(outdir, 'compile-cache'), { recursive: true, force: true })
await build({
  entryPoints: {
    'sangam-cli': join(root, 'src', 'cli', 'main.ts'),
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

// The short commands, those that answer and exit, also run from one CommonJS bundle of the CLI
// through V8's code cache, as the hooks do: no ES-module loader resolving ~40 chunks, no chunk
// compiled. Measured against the chunks in one run (bench/cli-startup.ts): about a third less CPU
// for read, status, board, post and claim, while --version and --help, which load little, are
// cheaper as chunks (D470). What serves or runs long (serve, ui, up, mcp, chat), starts other
// programs (lane, start, codex) or sets up (init, join, install-hooks, index, doctor) keeps the
// chunks: some find files relative to their module (import.meta), which a bundle moves.
const bundledCommands = [
  'alerts',
  'board',
  'brief',
  'claim',
  'deliveries',
  'identify',
  'leases',
  'log',
  'note',
  'option-set',
  'options',
  'post',
  'read',
  'ready',
  'release',
  'rules',
  'search',
  'send',
  'sessions',
  'status',
  'sync',
  'targets',
  'thread',
  'thread-close',
  'thread-open',
  'threads',
  'who-has',
]
// The bundle keeps a command's module by its file name, the launcher routes by the command's name:
// the two must be one, or the command would reach the stub below.
const commandFiles = readdirSync(join(root, 'src', 'cli', 'commands'), { recursive: true })
for (const command of bundledCommands)
  if (!commandFiles.some((file) => file.endsWith(`/${command}.ts`)))
    throw new Error(`build-cli: the bundled command ${command} has no src/cli/commands/*/${command}.ts`)
const bundleFile = join(outdir, 'sangam-cli.bundle.cjs')
/**
 * The registry's import of a command the bundle does not run (and of the MCP tools `--help mcp`
 * describes) becomes a module that says so if it is ever required: with them go the MCP SDK, ajv,
 * hono, the daemon and the dashboard, about a third of the bundle, read and deserialised by every
 * short command.
 */
const onlyBundledCommands = {
  name: 'only-bundled-commands',
  setup(builder) {
    builder.onResolve(
      { filter: /^\.\.?\/(commands\/|\.\.\/mcp\/tools\.ts$)/ },
      ({ path, importer, kind }) => {
        if (kind !== 'dynamic-import' || !importer.endsWith(join('src', 'cli', 'registry.ts')))
          return undefined
        const command = /([^/]+)\.ts$/.exec(path)?.[1]
        if (path.startsWith('./commands/') && bundledCommands.includes(command)) return undefined
        return { path, namespace: 'not-bundled' }
      },
    )
    builder.onLoad({ filter: /.*/, namespace: 'not-bundled' }, ({ path }) => ({
      contents: `throw new Error('${path} is not in the CLI bundle: dist/cli/main.js runs it from the ES-module chunks')`,
      loader: 'js',
    }))
  },
}
for (const name of readdirSync(outdir)) if (name.endsWith('.v8cache')) rmSync(join(outdir, name))
await build({
  entryPoints: [join(root, 'src', 'cli', 'main.ts')],
  outfile: bundleFile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  // Every command's implementation stays behind its dynamic import, which becomes a lazy require.
  supported: { 'dynamic-import': false },
  banner: { js: 'var importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': 'importMetaUrl' },
  external: ['miniflare', 'ws'],
  plugins: [onlyBundledCommands, scrubberWithoutSideEffects, englishOnlyZod],
  logLevel: 'error',
})
const hash = createHash('sha256').update(readFileSync(bundleFile)).digest('hex').slice(0, 16)
writeFileSync(join(outdir, 'sangam-cli.cjs'), launcher('sangam-cli', hash))

writeFileSync(
  join(outdir, 'main.js'),
  `#!/usr/bin/env node
// Generated by scripts/build-cli.mjs: runs a short command from the CommonJS bundle through V8's
// code cache (sangam-cli.cjs), and anything else from the ES-module chunks with Node's compile cache.
import module from 'node:module'
import { fileURLToPath } from 'node:url'
const bundled = new Set(${JSON.stringify(bundledCommands)})
const entry = fileURLToPath(import.meta.url)
const argv = process.argv.slice(2)
if (bundled.has(argv[0])) {
  const { main } = module.createRequire(import.meta.url)('./sangam-cli.cjs')
  process.exitCode = await main(argv, entry)
} else {
  try {
    module.enableCompileCache?.(fileURLToPath(new URL('./compile-cache', import.meta.url)))
  } catch {}
  const { main } = await import('./sangam-cli.js')
  process.exitCode = await main(argv, entry)
}
`,
  { mode: 0o755 },
)
