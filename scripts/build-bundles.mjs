#!/usr/bin/env node
// Bundles each entry point an agent CLI starts (the hooks, src/hooks/*-main.ts, and the MCP server,
// src/mcp/mcp-main.ts) with everything it reaches into one CommonJS file,
// dist/<dir>/<entry>.bundle.cjs, which dist/<dir>/<entry>.cjs, the file the hosts run, compiles
// through V8's code cache (scripts/v8-cache-launcher.mjs). Claude Code and Codex start the agent hook on every
// edit and wait for the MCP server's `initialize` before their first model request, and Node 20
// loads ES modules one file at a time, each module's imports resolved up front; one CommonJS file
// whose modules initialise on first use (dynamic imports and packages included) starts far faster
// (bench/hooks.ts, bench/cli-startup.ts, docs/performance.md).
//
// SQLite is Node's own (`node:sqlite`, taken with process.getBuiltinModule): nothing to bundle.
//
// Node compiles the whole file on every start, whatever runs, so what the edit path never runs
// still costs. The team server's HTTP client validates answers with zod, 800 KB that would be
// most of the file: it is its own file, dist/hooks/sync-http.cjs, which its dynamic import loads
// on the first request. SangamError is a third file both require, so that `instanceof` agrees
// across them (an unreachable server is told apart by it, sync/services/unreachable.ts). The MCP
// server needs the HTTP client's schemas anyway, so its bundle holds everything in one file: not
// the file the hosts start, though. That one, mcp-main, answers `initialize` and `tools/list` from
// dist/mcp/mcp-listing.json, which this script records from the built server itself, and requires
// the server (mcp-server.cjs, the SDK, zod and every tool) at the first tool call
// (src/mcp/lazy-server.ts, D395).
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { englishOnlyZod, scrubberWithoutSideEffects } from './esbuild-plugins.mjs'
import { launcher } from './v8-cache-launcher.mjs'

const root = new URL('..', import.meta.url).pathname

/** Modules that become their own file, required at run time by the bundles that import them. */
const ownFiles = {
  'sync-http': join(root, 'src', 'sync', 'services', 'http-client.ts'),
  'sangam-error': join(root, 'src', 'shared', 'sangam-error.ts'),
}

/** The MCP server, which the MCP entry requires at the first tool call, a launched file of its own. */
const mcpServerFile = { 'mcp-server': join(root, 'src', 'mcp', 'server.ts') }

/** Resolves an import of one of `files` (other than the file being built) to its `.cjs` file. */
function requireOwnFiles(files, except) {
  return {
    name: 'own-files',
    setup(builder) {
      builder.onResolve({ filter: /\.ts$/ }, ({ path, resolveDir }) => {
        const target = join(resolveDir, path)
        const name = Object.keys(files).find((key) => files[key] === target && key !== except)
        return name === undefined ? undefined : { path: `./${name}.cjs`, external: true }
      })
    },
  }
}

/** The entries the hosts run, each bundled into dist/<dir>/ beside a launcher of its own. */
const launched = [
  { name: 'agent-hook-main', dir: 'hooks', ownFiles: true },
  { name: 'claude-wake-main', dir: 'hooks', ownFiles: true },
  { name: 'pre-push-main', dir: 'hooks', ownFiles: true },
  { name: 'mcp-main', dir: 'mcp', ownFiles: false, splits: mcpServerFile },
]
const bundles = [
  ...launched.map((bundle) => ({ ...bundle, entry: join(root, 'src', bundle.dir, `${bundle.name}.ts`) })),
  {
    name: 'mcp-server',
    // server.ts behind a dynamic import: in the bundle every module behind one initialises through
    // esbuild's lazy wrappers, which order the SDK's zod imports correctly (a static import of the
    // SDK beside the lazily-loaded zod of our own modules does not).
    entry: {
      contents:
        "export const runMcpServer = async (options) => (await import('./server.ts')).runMcpServer(options)",
      resolveDir: join(root, 'src', 'mcp'),
      sourcefile: 'mcp-server-entry.js',
      loader: 'js',
    },
    dir: 'mcp',
    ownFiles: false,
  },
  ...Object.entries(ownFiles).map(([name, entry]) => ({ name, entry, dir: 'hooks', ownFiles: true })),
]
const launchedNames = [...launched.map((bundle) => bundle.name), 'mcp-server']

for (const dir of new Set(bundles.map((bundle) => bundle.dir))) {
  const outdir = join(root, 'dist', dir)
  mkdirSync(outdir, { recursive: true })
  for (const name of readdirSync(outdir, { withFileTypes: true })) {
    if (name.isFile() && name.name.endsWith('.v8cache')) rmSync(join(outdir, name.name))
  }
}
for (const { name, entry, dir, ownFiles: splitsOwnFiles, splits } of bundles) {
  const isLaunched = launchedNames.includes(name)
  const outdir = join(root, 'dist', dir)
  const outfile = join(outdir, isLaunched ? `${name}.bundle.cjs` : `${name}.cjs`)
  await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: entry }),
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    // A dynamic import of one of `ownFiles` becomes a require: no ES-module loader for one file.
    supported: { 'dynamic-import': false },
    // A CommonJS file has no import.meta; leases/store/lease-regex.ts requires picomatch relative to
    // it, and config/version.ts reads package.json (two levels up, from dist/<dir>/ as from src/<dir>/).
    banner: { js: 'var importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': 'importMetaUrl' },
    plugins: [
      ...(splitsOwnFiles ? [requireOwnFiles(ownFiles, name)] : []),
      ...(splits === undefined ? [] : [requireOwnFiles(splits, name)]),
      scrubberWithoutSideEffects,
      englishOnlyZod,
    ],
    logLevel: 'warning',
  })
  if (!isLaunched) continue
  const hash = createHash('sha256').update(readFileSync(outfile)).digest('hex').slice(0, 16)
  writeFileSync(join(outdir, `${name}.cjs`), launcher(name, hash), { mode: 0o755 })
}

/**
 * Records what the built server answers to `initialize` (for the latest protocol version) and to
 * `tools/list` into dist/mcp/mcp-listing.json, for src/mcp/mcp-listing.ts to answer from: the
 * SDK's own answers, byte for byte, from tsc's build of the server run in this process.
 */
async function recordMcpListing() {
  const dist = (path) => pathToFileURL(join(root, 'dist', path)).href
  const { runMcpServer } = await import(dist('mcp/server.js'))
  const { version } = await import(dist('config/version.js'))
  const { readEnvironment } = await import(dist('config/environment.js'))
  const { silentLogger } = await import(dist('shared/logger.js'))
  const { systemClock } = await import(dist('shared/clock.js'))
  const { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } = await import(
    '@modelcontextprotocol/sdk/types.js'
  )
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const answers = new Map()
  let text = ''
  const answered = new Promise((resolve) => {
    stdout.on('data', (chunk) => {
      text += chunk.toString('utf8')
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n')) {
        const message = JSON.parse(text.slice(0, index))
        text = text.slice(index + 1)
        answers.set(message.id, message)
        if (answers.size === 2) resolve()
      }
    })
  })
  const scratch = tmpdir()
  const serving = runMcpServer({
    env: readEnvironment({ HOME: scratch, SANGAM_HOME: join(scratch, 'sangam-build-listing') }),
    cwd: scratch,
    clock: systemClock,
    log: silentLogger,
    version,
    stdin,
    stdout,
    stopSignal: new AbortController().signal,
  })
  const request = (id, method, params) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`
  stdin.write(
    request(1, 'initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'sangam-build', version },
    }),
  )
  stdin.write(request(2, 'tools/list', {}))
  await answered
  stdin.end()
  await serving
  const [initialize, list] = [answers.get(1), answers.get(2)]
  if (initialize?.result === undefined || list?.result === undefined) {
    throw new Error(`the MCP server did not answer: ${JSON.stringify([initialize, list])}`)
  }
  const listing = {
    version,
    supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
    initializeResult: initialize.result,
    toolsListResult: list.result,
  }
  writeFileSync(join(root, 'dist', 'mcp', 'mcp-listing.json'), `${JSON.stringify(listing)}\n`)
}

await recordMcpListing()
