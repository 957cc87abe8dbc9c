import assert from 'node:assert/strict'
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { projectRoot } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { claudeEdit } from './hooks-agent-run.ts'

/**
 * sangam as a user installs it: `npm pack`, then `npm install -g` of the tarball into a prefix of
 * its own with npm's defaults, no install script approved, a clean HOME and no checkout around;
 * and the same tarball run through `npx`. Every command family then runs from the installed
 * package on the Node running this file (.ci/run runs the file on each supported Node line):
 * setup, memory, leases, room, lanes, delivery, the dashboard, the hooks, the MCP server the hosts
 * are registered to run, and serve once its runtime is added as docs/cli.md says.
 *
 * npm keeps the caller's own configuration and cache (the registry, its certificates, the packages
 * `npm ci` fetched): what is clean is sangam's world, HOME and its data, Claude Code's and Codex's
 * configuration.
 */

/** One `npm install` attempt; npm 11 was once seen idle for minutes on this 2-core machine. */
const installAttemptMs = 5 * 60_000
/** `serve --install-runtime`: npm unpacks workerd (about 150 MB) from its cache or the registry. */
const runtimeInstallMs = 10 * 60_000
/** A bound for each command and wait of a step, so that a hang fails the step instead of the file. */
const stepMs = 120_000
/** The done-when of issue 23: the installed package, dependencies included. */
const maxInstalledBytes = 40 * 1024 * 1024
const scratch = tmpDir('sangam-packed-')
const prefix = join(scratch.path, 'prefix')
const home = join(scratch.path, 'home')
const installed = join(prefix, 'lib', 'node_modules', 'sangam')
const bin = join(prefix, 'bin', 'sangam')
const npmUser = {
  userconfig: npmConfig('userconfig'),
  cache: npmConfig('cache'),
}
const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  version: string
  devDependencies: Record<string, string>
}
const version = manifest.version
const repo = tmpGitRepo()
let tarball = ''
/** Long-running commands not stopped yet. */
const running = new Set<ChildProcess>()

/** npm as a user runs it: their configuration and cache, nothing of the checkout. */
const npmEnv: Record<string, string> = {
  npm_config_userconfig: npmUser.userconfig,
  npm_config_cache: npmUser.cache,
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  // The machine's trust store, not the caller's: behind a TLS-inspecting proxy the registry
  // is reached only with it (its absence was a SELF_SIGNED_CERT_IN_CHAIN per packument).
  ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
}

/** The environment every installed command runs in: nothing of the checkout, nothing of the caller's HOME. */
const env: Record<string, string> = {
  PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
  HOME: home,
  SANGAM_HOME: join(home, '.sangam'),
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  CODEX_HOME: join(home, '.codex'),
  SANGAM_LOG: 'warn',
  SANGAM_USER: 'dev@example.com',
  ...npmEnv,
}

before(() => {
  mkdirSync(home, { recursive: true })
  mkdirSync(join(repo.path, 'src'), { recursive: true })
  writeFileSync(join(repo.path, 'src', 'a.ts'), 'export const a = 1\n')
  tarball = pack(projectRoot, scratch.path)
})

after(async () => {
  // A step that failed before stopping what it started.
  for (const child of running) child.kill('SIGKILL')
  await repo[Symbol.asyncDispose]()
  await scratch[Symbol.asyncDispose]()
})

test('npm install -g of the tarball runs no install script and brings no native module and no workerd', {
  timeout: 2 * installAttemptMs,
}, () => {
  const began = performance.now()
  npmInstallGlobal(tarball)
  process.stderr.write(
    `npm install -g took ${Math.round(performance.now() - began)} ms on Node ${process.version}\n`,
  )
  assert.ok(existsSync(bin), `${bin} is installed`)
  assert.equal(realpathSync(bin), join(installed, 'dist', 'cli', 'main.js'))
  assert.equal(
    realpathSync(join(prefix, 'bin', 'sangam-mcp')),
    join(installed, 'dist', 'mcp', 'mcp-main.cjs'),
  )
  const tree = installedTree(installed)
  assert.deepEqual(tree.installScripts, [], 'no package installed with sangam has an install script')
  assert.deepEqual(tree.nativeFiles, [], 'nothing to compile and no native module')
  assert.deepEqual(
    tree.packages.filter((name) =>
      /^(miniflare|workerd|@cloudflare\/|sharp|@img\/|better-sqlite3)/.test(name),
    ),
    [],
    'the Workers runtime comes only with serve --install-runtime',
  )
  process.stderr.write(`installed: ${tree.bytes} bytes in ${tree.packages.length} packages\n`)
  assert.ok(tree.bytes < maxInstalledBytes, `${tree.bytes} bytes installed`)
  assert.equal(sangam(['--version']).trim(), version)
})

test('setup: init, install-hooks and doctor run from the installed package', { timeout: 4 * stepMs }, () => {
  const init = sangamJson<{
    mcp: { status: string; portable: boolean; launches: Record<string, { command: string; args: string[] }> }
  }>(['init', '--yes'])
  assert.equal(init.mcp.status, 'registered')
  // npm linked `sangam-mcp` beside `sangam`: the project's .mcp.json names it, for every teammate.
  assert.equal(init.mcp.portable, true)
  assert.deepEqual(init.mcp.launches.claude, { command: 'sangam-mcp', args: [] })
  assert.deepEqual(init.mcp.launches.codex?.args, [join(installed, 'dist', 'mcp', 'mcp-main.cjs')])
  sangamJson(['install-hooks'])
  const settings = readFileSync(join(repo.path, '.claude', 'settings.json'), 'utf8')
  assert.ok(settings.includes(join(installed, 'dist', 'hooks', 'agent-hook-main.cjs')), settings)
  sangamJson(['doctor'])
})

test('memory: index captures a transcript, search finds it, a note and the brief', {
  timeout: 4 * stepMs,
}, () => {
  writeTranscript(repo.path, 'the flaky parser needs a retry budget')
  sangamJson(['index'])
  const found = sangamJson<{ hits: { kind: string; snippet: string }[] }>(['search', 'parser', 'retry'])
  assert.equal(found.hits[0]?.kind, 'human', JSON.stringify(found))
  sangamJson(['note', 'the parser keeps a retry budget of three'])
  const note = sangamJson<{ hits: { kind: string }[] }>(['search', 'budget', '--kind', 'note'])
  assert.equal(note.hits.length, 1, JSON.stringify(note))
  sangamJson(['brief'])
})

test('leases: claim, who-has, leases, and the edit hook denies what another holds', {
  timeout: 4 * stepMs,
}, () => {
  sangamJson(['claim', 'src/a.ts', '--reason', 'packed test'], { SANGAM_USER: 'bob@example.com' })
  const who = sangamJson<{ leases: unknown[] }>(['who-has', 'src/a.ts'])
  assert.equal(who.leases.length, 1, JSON.stringify(who))
  sangamJson(['leases'])
  assert.match(deniedEdit(), /bob@example\.com/)
  sangamJson(['claim', 'README.md', '--reason', 'packed test'])
  sangamJson(['release', 'README.md'])
})

test('room: post, read, threads and the board', { timeout: 4 * stepMs }, () => {
  const posted = sangamJson<{ message: { id: string } }>(['post', 'the parser fix is in review'])
  const read = sangamJson<{ messages: { id: string }[] }>(['read'])
  assert.ok(
    read.messages.some((message) => message.id === posted.message.id),
    JSON.stringify(read),
  )
  sangamJson(['threads'])
  sangamJson(['board'])
})

test('lanes and delivery: status, log, sessions, deliveries', { timeout: 4 * stepMs }, () => {
  sangamJson(['status'])
  sangamJson(['log'])
  sangamJson(['sessions'])
  sangamJson(['deliveries'])
})

test('the registered MCP server answers initialize, lists its tools and searches', {
  timeout: stepMs,
}, async () => {
  const answers = await registeredMcp([
    { id: 2, method: 'tools/list' },
    { id: 3, method: 'tools/call', params: { name: 'ctx_search', arguments: { query: 'parser' } } },
  ])
  const tools = (answers[2] as { result?: { tools?: { name: string }[] } }).result?.tools ?? []
  assert.ok(
    tools.some((tool) => tool.name === 'ctx_search'),
    JSON.stringify(answers[2]),
  )
  const call = answers[3] as { result?: { isError?: boolean; content?: { text: string }[] } }
  assert.notEqual(call.result?.isError, true, JSON.stringify(call))
  assert.match(call.result?.content?.[0]?.text ?? '', /parser/)
})

test('up and the dashboard start from the installed package and stop cleanly', {
  timeout: 4 * stepMs,
}, async () => {
  const up = await longRunning(['up', '--json'], (line) => line.includes('"started"'))
  assert.equal(await up.stop(), 0, up.stderr())
  const ui = await longRunning(['ui', '--no-open', '--json'], (line) => line.includes('"type":"ui"'))
  const { url, port } = JSON.parse(ui.firstLine) as { url: string; port: number }
  const token = new URL(url).searchParams.get('token') ?? ''
  const page = await fetch(new URL('/', url), {
    headers: { cookie: `sangam-ui-${port}=${token}` },
    signal: AbortSignal.timeout(stepMs),
  })
  assert.equal(page.status, 200, await page.text())
  assert.equal(await ui.stop(), 0, ui.stderr())
})

test('serve says how to add its runtime, and serves once it is added so', {
  timeout: runtimeInstallMs + 2 * stepMs,
}, async () => {
  const data = join(scratch.path, 'serve-data')
  const missing = run(bin, ['serve', '--port', '0', '--data', data, '--json'])
  assert.equal(missing.status, 13, missing.stderr)
  const refusal = JSON.parse(missing.stdout) as { error: { code: string; next: string } }
  assert.equal(refusal.error.code, 'VENDOR_CLI_UNAVAILABLE')
  assert.equal(refusal.error.next, 'sangam serve --install-runtime')
  assert.match(missing.stderr, /sangam serve --install-runtime/)
  const serve = await longRunning(
    ['serve', '--install-runtime', '--port', '0', '--data', data, '--json'],
    (line) => line.startsWith('http'),
    runtimeInstallMs,
  )
  const health = await fetch(new URL('/v1/health', serve.firstLine), { signal: AbortSignal.timeout(stepMs) })
  assert.equal(health.status, 200)
  assert.equal(await serve.stop(), 0, serve.stderr())
  const runtime = (
    JSON.parse(serve.stdoutAfterFirstLine()) as { runtime: { version: string; installed: boolean } }
  ).runtime
  assert.deepEqual(runtime, {
    package: 'miniflare',
    version: manifest.devDependencies.miniflare,
    installed: true,
  })
  // The second time it is there: no install, no flag needed.
  const again = await longRunning(['serve', '--port', '0', '--data', data], (line) => line.startsWith('http'))
  assert.equal(await again.stop(), 0, again.stderr())
})

test('after an upgrade of the package the installed hooks and MCP server still work', {
  timeout: 2 * installAttemptMs,
}, async () => {
  const next = bumpedTarball(`${version}-next`)
  npmInstallGlobal(next)
  assert.equal(sangam(['--version']).trim(), `${version}-next`)
  assert.match(deniedEdit(), /bob@example\.com/)
  const answers = await registeredMcp([{ id: 2, method: 'tools/list' }])
  const tools = (answers[2] as { result?: { tools?: { name: string }[] } }).result?.tools ?? []
  assert.ok(tools.some((tool) => tool.name === 'ctx_claim'))
})

test('npx runs the same tarball: init, index, search, claim, post, the edit hook and MCP', {
  timeout: 2 * installAttemptMs + 6 * stepMs,
}, async () => {
  await using npxHome = tmpDir('sangam-npx-home-')
  await using npxRepo = tmpGitRepo()
  mkdirSync(join(npxRepo.path, 'src'), { recursive: true })
  writeFileSync(join(npxRepo.path, 'src', 'b.ts'), 'export const b = 2\n')
  const npxEnv: Record<string, string> = {
    ...env,
    PATH: process.env.PATH ?? '',
    HOME: npxHome.path,
    SANGAM_HOME: join(npxHome.path, '.sangam'),
    CLAUDE_CONFIG_DIR: join(npxHome.path, '.claude'),
    CODEX_HOME: join(npxHome.path, '.codex'),
  }
  const npx = (args: readonly string[], extra: Record<string, string> = {}): unknown => {
    const result = run('npx', ['--yes', '--package', tarball, '--', 'sangam', ...args, '--json'], {
      cwd: npxRepo.path,
      env: { ...npxEnv, ...extra },
      timeoutMs: installAttemptMs,
    })
    assert.equal(result.status, 0, `npx sangam ${args.join(' ')}: ${result.stderr}`)
    refuseWarnings(result.stderr)
    return JSON.parse(result.stdout)
  }
  const init = npx(['init', '--yes']) as { mcp: { status: string } }
  assert.equal(init.mcp.status, 'registered')
  writeTranscript(npxRepo.path, 'the npx install indexes this turn', join(npxHome.path, '.claude'))
  npx(['index'])
  const found = npx(['search', 'npx', 'indexes']) as { hits: unknown[] }
  assert.equal(found.hits.length, 1, JSON.stringify(found))
  npx(['claim', 'src/b.ts', '--reason', 'npx test'], { SANGAM_USER: 'carol@example.com' })
  npx(['post', 'claimed through npx'])
  npx(['install-hooks'])
  assert.match(deniedEdit(npxRepo.path, npxEnv, 'src/b.ts'), /carol@example\.com/)
  const answers = await registeredMcp([{ id: 2, method: 'tools/list' }], npxRepo.path, npxEnv)
  const tools = (answers[2] as { result?: { tools?: { name: string }[] } }).result?.tools ?? []
  assert.ok(tools.some((tool) => tool.name === 'ctx_search'))
})

function npmConfig(key: string): string {
  return execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim()
}

interface Ran {
  readonly status: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; input?: string } = {},
): Ran {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? repo.path,
    env: options.env ?? env,
    input: options.input,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? stepMs,
    killSignal: 'SIGKILL',
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  if (result.error !== undefined && result.signal === null) throw result.error
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr }
}

function npm(args: readonly string[], cwd: string): Ran {
  const result = run('npm', [...args, '--loglevel=error'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...npmEnv },
    timeoutMs: installAttemptMs,
  })
  if (result.status !== 0 && result.signal === null)
    throw new Error(`npm ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return result
}

/** `npm pack` of a package directory (already built: `npm test` builds first), returning the tarball. */
function pack(dir: string, into: string): string {
  const name = npm(['pack', '--pack-destination', into], dir).stdout.trim().split('\n').at(-1) ?? ''
  return join(into, name)
}

/**
 * npm with its defaults: no `--allow-scripts`, no `--ignore-scripts`, nothing approved. An attempt
 * that passes its bound is killed and tried once more, so npm's own hang (once seen here, idle for
 * minutes with no child and no socket) fails the step, not the whole file.
 */
function npmInstallGlobal(tarballPath: string): void {
  const args = ['install', '--global', '--prefix', prefix, '--prefer-offline', tarballPath]
  if (npm(args, scratch.path).signal === null) return
  process.stderr.write(`npm install took over ${installAttemptMs / 60_000} minutes; trying once more\n`)
  assert.equal(npm(args, scratch.path).signal, null, 'npm install finished')
}

interface InstalledTree {
  readonly packages: string[]
  readonly installScripts: string[]
  readonly nativeFiles: string[]
  readonly bytes: number
}

/** Every package under `root` (itself included), what would run at install, what is native, the bytes. */
function installedTree(root: string): InstalledTree {
  const tree = {
    packages: [] as string[],
    installScripts: [] as string[],
    nativeFiles: [] as string[],
    bytes: 0,
  }
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isSymbolicLink()) continue
      if (entry.isDirectory()) {
        walk(path)
        continue
      }
      tree.bytes += lstatSync(path).size
      if (entry.name.endsWith('.node') || entry.name === 'binding.gyp') tree.nativeFiles.push(path)
      if (entry.name !== 'package.json' || !existsSync(join(dir, 'package.json'))) continue
      const json = JSON.parse(readFileSync(path, 'utf8')) as {
        name?: string
        scripts?: Record<string, string>
      }
      if (json.name === undefined || !isPackageRoot(dir, json.name)) continue
      tree.packages.push(json.name)
      for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
        if (json.scripts?.[script] !== undefined) tree.installScripts.push(`${json.name}: ${script}`)
    }
  }
  walk(root)
  return tree
}

/** A package's own package.json, not a nested one of its files (`dist/esm/package.json`). */
function isPackageRoot(dir: string, name: string): boolean {
  return dir === installed || dir.endsWith(`/node_modules/${name}`)
}

/** The same package under another version, as the next release would be. */
function bumpedTarball(next: string): string {
  const unpacked = join(scratch.path, 'next')
  mkdirSync(unpacked, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked])
  const path = join(unpacked, 'package', 'package.json')
  const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  writeFileSync(path, `${JSON.stringify({ ...json, version: next }, null, 2)}\n`)
  return pack(join(unpacked, 'package'), unpacked)
}

/** Node 22 announces node:sqlite on stderr; sangam keeps that from its users (store/node-sqlite.ts). */
function refuseWarnings(stderr: string): void {
  assert.doesNotMatch(stderr, /ExperimentalWarning|Warning: SQLite/, stderr)
}

function sangam(args: readonly string[], extra: Record<string, string> = {}): string {
  const result = run(bin, args, { env: { ...env, ...extra } })
  assert.equal(result.status, 0, `sangam ${args.join(' ')}: ${result.stderr}`)
  refuseWarnings(result.stderr)
  return result.stdout
}

function sangamJson<T = unknown>(args: readonly string[], extra: Record<string, string> = {}): T {
  return JSON.parse(sangam([...args, '--json'], extra)) as T
}

/** One human turn of a Claude Code session in `cwd`, where `sangam index` looks for it. */
function writeTranscript(cwd: string, text: string, claudeDir = join(home, '.claude')): void {
  const sessionId = randomUUID()
  const dir = join(claudeDir, 'projects', cwd.replaceAll('/', '-'))
  mkdirSync(dir, { recursive: true })
  const line = {
    type: 'user',
    cwd,
    sessionId,
    version: '2.1.80',
    gitBranch: 'main',
    timestamp: new Date().toISOString(),
    uuid: randomUUID(),
    message: { role: 'user', content: text },
  }
  writeFileSync(join(dir, `${sessionId}.jsonl`), `${JSON.stringify(line)}\n`)
}

/** Runs the Claude Code PreToolUse hook exactly as .claude/settings.json names it; returns the denial. */
function deniedEdit(cwd = repo.path, hookEnv = env, file = 'src/a.ts'): string {
  const settings = JSON.parse(readFileSync(join(cwd, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { command: string; args?: string[] }[] }[]>
  }
  const handler = settings.hooks.PreToolUse?.[0]?.hooks[0]
  assert.ok(handler, 'a PreToolUse handler is installed')
  const payload = JSON.stringify(claudeEdit(cwd, join(cwd, file)))
  const result =
    handler.args === undefined
      ? run('/bin/sh', ['-c', handler.command], { cwd, env: hookEnv, input: payload })
      : run(handler.command, handler.args, { cwd, env: hookEnv, input: payload })
  assert.equal(result.status, 0, result.stderr)
  refuseWarnings(result.stderr)
  const decision = (JSON.parse(result.stdout) as { hookSpecificOutput?: Record<string, string> })
    .hookSpecificOutput
  assert.equal(decision?.permissionDecision, 'deny', result.stdout)
  return decision?.permissionDecisionReason ?? ''
}

/**
 * Starts the MCP server as `.mcp.json` registers it, initializes, sends `requests` and returns
 * every answer by id, over raw JSON-RPC.
 */
async function registeredMcp(
  requests: readonly { id: number; method: string; params?: unknown }[],
  cwd = repo.path,
  mcpEnv = env,
): Promise<Record<number, unknown>> {
  const launch = (
    JSON.parse(readFileSync(join(cwd, '.mcp.json'), 'utf8')) as {
      mcpServers: { sangam: { command: string; args: string[] } }
    }
  ).mcpServers.sangam
  const child = spawn(launch.command, launch.args, { cwd, env: mcpEnv, stdio: 'pipe' })
  running.add(child)
  child.once('close', () => running.delete(child))
  const answers: Record<number, unknown> = {}
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  let pending = ''
  const answered = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8')
      const parts = pending.split('\n')
      pending = parts.pop() ?? ''
      for (const line of parts.filter((part) => part.trim() !== '')) {
        const message = JSON.parse(line) as { id?: number }
        if (typeof message.id === 'number') answers[message.id] = message
      }
      if (requests.every((request) => request.id in answers)) resolve()
    })
    child.once('exit', (code) =>
      reject(new Error(`the MCP server exited ${code} before answering: ${stderr}`)),
    )
    child.once('error', reject)
  })
  const send = (message: object): void => {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
  }
  send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'packed', version: '0' } },
  })
  send({ method: 'notifications/initialized' })
  for (const request of requests) send(request)
  await answered
  child.stdin.end()
  await new Promise((resolve) => child.once('close', resolve))
  refuseWarnings(stderr)
  return answers
}

interface LongRunning {
  readonly firstLine: string
  stderr(): string
  /** What stdout carried after the first line (a `--json` document printed at shutdown). */
  stdoutAfterFirstLine(): string
  stop(): Promise<number | null>
}

/** Starts an installed long-running command and waits for the line that says it is up. */
async function longRunning(
  args: readonly string[],
  isUp: (line: string) => boolean,
  upWithinMs = stepMs,
): Promise<LongRunning> {
  const child = spawn(bin, args, { cwd: repo.path, env, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  child.once('close', () => running.delete(child))
  let stderr = ''
  let stdout = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  const bound = setTimeout(() => child.kill('SIGKILL'), upWithinMs)
  const firstLine = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      const line = stdout.split('\n').slice(0, -1).find(isUp)
      if (line !== undefined) resolve(line)
    })
    void exited.then((code) => reject(new Error(`sangam ${args.join(' ')} exited ${code}: ${stderr}`)))
  }).finally(() => clearTimeout(bound))
  return {
    firstLine,
    stderr: () => stderr,
    stdoutAfterFirstLine: () => stdout.slice(stdout.indexOf(firstLine) + firstLine.length),
    stop: async () => {
      child.kill('SIGTERM')
      const code = await exited
      refuseWarnings(stderr)
      return code
    },
  }
}
