import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { projectRoot } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { claudeEdit } from './hooks-agent-run.ts'

/**
 * sangam as a user installs it: `npm pack`, then `npm install -g` of the tarball into a prefix of
 * its own, with a clean HOME and no checkout around. Every command then runs from the installed
 * package: init, install-hooks (whose hooks must name the installed files and keep working across
 * an upgrade of the package), the MCP server the hosts are registered to run, serve and up.
 *
 * npm compiles better-sqlite3 for each install (no prebuilt binary can be downloaded here), so the
 * two installs take minutes; their tests carry timeouts of their own. npm keeps the caller's own
 * configuration and cache (node-gyp finds Node's headers through it): what is clean is sangam's
 * world, HOME and its data, Claude Code's and Codex's configuration.
 */

const installMs = 15 * 60_000
/** One `npm install` attempt: two fit in a test's `installMs`. */
const installAttemptMs = 7 * 60_000
/** A bound for each command and wait of a step, so that a hang fails the step instead of the file. */
const stepMs = 120_000
const scratch = tmpDir('sangam-packed-')
const prefix = join(scratch.path, 'prefix')
const home = join(scratch.path, 'home')
const installed = join(prefix, 'lib', 'node_modules', 'sangam')
const bin = join(prefix, 'bin', 'sangam')
const npmUser = {
  userconfig: npmConfig('userconfig'),
  cache: npmConfig('cache'),
}
const version = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string })
  .version
const repo = tmpGitRepo()

/** The environment every installed command runs in: nothing of the checkout, nothing of the caller's HOME. */
const env: Record<string, string> = {
  PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
  HOME: home,
  SANGAM_HOME: join(home, '.sangam'),
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  CODEX_HOME: join(home, '.codex'),
  SANGAM_LOG: 'warn',
  SANGAM_USER: 'dev@example.com',
}

before(() => {
  mkdirSync(home, { recursive: true })
  mkdirSync(join(repo.path, 'src'), { recursive: true })
  writeFileSync(join(repo.path, 'src', 'a.ts'), 'export const a = 1\n')
})

after(async () => {
  await repo[Symbol.asyncDispose]()
  await scratch[Symbol.asyncDispose]()
})

test('the packed tarball installs globally and its sangam runs from the prefix', {
  timeout: installMs,
}, () => {
  const tarball = pack(projectRoot, scratch.path)
  npmInstallGlobal(tarball)
  assert.ok(existsSync(bin), `${bin} is installed`)
  assert.equal(realpathSync(bin), join(installed, 'dist', 'cli', 'main.js'))
  assert.equal(
    realpathSync(join(prefix, 'bin', 'sangam-mcp')),
    join(installed, 'dist', 'mcp', 'mcp-main.cjs'),
  )
  assert.equal(sangam(['--version']).trim(), version)
})

test('init, install-hooks and the hooks run from the installed package', { timeout: 4 * stepMs }, () => {
  const init = JSON.parse(sangam(['init', '--yes', '--json'])) as {
    mcp: { status: string; portable: boolean; launches: Record<string, { command: string; args: string[] }> }
  }
  assert.equal(init.mcp.status, 'registered')
  // npm linked `sangam-mcp` beside `sangam`: the project's .mcp.json names it, for every teammate.
  assert.equal(init.mcp.portable, true)
  assert.deepEqual(init.mcp.launches.claude, { command: 'sangam-mcp', args: [] })
  assert.deepEqual(init.mcp.launches.codex?.args, [join(installed, 'dist', 'mcp', 'mcp-main.cjs')])
  sangam(['install-hooks', '--json'])
  const settings = readFileSync(join(repo.path, '.claude', 'settings.json'), 'utf8')
  assert.ok(settings.includes(join(installed, 'dist', 'hooks', 'agent-hook-main.cjs')), settings)
  sangam(['claim', 'src/a.ts', '--reason', 'packed test', '--json'], { SANGAM_USER: 'bob@example.com' })
  assert.match(deniedEdit(), /bob@example\.com/)
})

test('the registered MCP server answers initialize and lists its tools', { timeout: stepMs }, async () => {
  assert.ok((await registeredMcpTools()).includes('ctx_search'))
})

test('serve and up start from the installed package and stop cleanly', { timeout: 4 * stepMs }, async () => {
  const data = join(scratch.path, 'serve-data')
  const serve = await longRunning(['serve', '--port', '0', '--data', data], (line) => line.startsWith('http'))
  const health = await fetch(new URL('/v1/health', serve.firstLine), { signal: AbortSignal.timeout(stepMs) })
  assert.equal(health.status, 200)
  assert.equal(await serve.stop(), 0, serve.stderr())
  const up = await longRunning(['up', '--json'], (line) => line.includes('"started"'))
  assert.equal(await up.stop(), 0, up.stderr())
})

test('after an upgrade of the package the installed hooks and MCP server still work', {
  timeout: installMs,
}, () => {
  const next = bumpedTarball(`${version}-next`)
  npmInstallGlobal(next)
  assert.equal(sangam(['--version']).trim(), `${version}-next`)
  assert.match(deniedEdit(), /bob@example\.com/)
  return registeredMcpTools().then((tools) => assert.ok(tools.includes('ctx_claim')))
})

function npmConfig(key: string): string {
  return execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim()
}

function npm(args: readonly string[], cwd: string, timeoutMs = installAttemptMs): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      npm_config_userconfig: npmUser.userconfig,
      npm_config_cache: npmUser.cache,
      npm_config_update_notifier: 'false',
      // The machine's trust store, not the caller's: behind a TLS-inspecting proxy the registry
      // is reached only with it (its absence was a SELF_SIGNED_CERT_IN_CHAIN per packument).
      ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** `npm pack` of a package directory (already built: `npm test` builds first), returning the tarball. */
function pack(dir: string, into: string): string {
  const name =
    npm(['pack', '--ignore-scripts', '--pack-destination', into], dir).trim().split('\n').at(-1) ?? ''
  return join(into, name)
}

/**
 * One attempt may take a few minutes (npm compiles better-sqlite3); on this 2-core machine npm 11
 * was once seen idle for 11 minutes in the upgrade install (no child, no socket, waiting on
 * nothing), and the same command run by hand right after took 90 s. An attempt that passes its
 * bound is killed and tried once more, so npm's own hang fails the step, not the whole file.
 */
function npmInstallGlobal(tarball: string): void {
  const args = ['install', '--global', '--prefix', prefix, '--prefer-offline', tarball]
  try {
    npm(args, scratch.path)
  } catch (error) {
    if ((error as { signal?: string }).signal !== 'SIGKILL') throw error
    process.stderr.write(`npm install took over ${installAttemptMs / 60_000} minutes; trying once more\n`)
    npm(args, scratch.path)
  }
}

/** The same package under another version, as the next release would be. */
function bumpedTarball(next: string): string {
  const unpacked = join(scratch.path, 'next')
  mkdirSync(unpacked, { recursive: true })
  const current = pack(projectRoot, unpacked)
  execFileSync('tar', ['-xzf', current, '-C', unpacked])
  const manifest = join(unpacked, 'package', 'package.json')
  const json = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>
  writeFileSync(manifest, `${JSON.stringify({ ...json, version: next }, null, 2)}\n`)
  return pack(join(unpacked, 'package'), unpacked)
}

function sangam(args: readonly string[], extra: Record<string, string> = {}): string {
  return execFileSync(bin, args, {
    cwd: repo.path,
    env: { ...env, ...extra },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: stepMs,
  })
}

/** Runs the Claude Code PreToolUse hook exactly as .claude/settings.json names it; returns the denial. */
function deniedEdit(): string {
  const settings = JSON.parse(readFileSync(join(repo.path, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { command: string; args?: string[] }[] }[]>
  }
  const handler = settings.hooks.PreToolUse?.[0]?.hooks[0]
  assert.ok(handler, 'a PreToolUse handler is installed')
  const payload = JSON.stringify(claudeEdit(repo.path, join(repo.path, 'src', 'a.ts')))
  const output = execFileSync(handler.command, handler.args ?? [], {
    cwd: repo.path,
    env,
    input: payload,
    encoding: 'utf8',
    shell: handler.args === undefined,
    timeout: stepMs,
  })
  const decision = (JSON.parse(output) as { hookSpecificOutput?: Record<string, string> }).hookSpecificOutput
  assert.equal(decision?.permissionDecision, 'deny', output)
  return decision?.permissionDecisionReason ?? ''
}

/** Starts the MCP server as `.mcp.json` registers it and asks for its tools, over raw JSON-RPC. */
async function registeredMcpTools(): Promise<string[]> {
  const launch = (
    JSON.parse(readFileSync(join(repo.path, '.mcp.json'), 'utf8')) as {
      mcpServers: { sangam: { command: string; args: string[] } }
    }
  ).mcpServers.sangam
  const child = spawn(launch.command, launch.args, { cwd: repo.path, env, stdio: 'pipe' })
  const lines: string[] = []
  let pending = ''
  const answered = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8')
      const parts = pending.split('\n')
      pending = parts.pop() ?? ''
      lines.push(...parts.filter((line) => line.trim() !== ''))
      if (lines.length >= 2) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the MCP server exited ${code} before answering`)))
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
  send({ id: 2, method: 'tools/list' })
  await answered
  child.stdin.end()
  const list = JSON.parse(lines[1] ?? '{}') as { result?: { tools?: { name: string }[] } }
  return (list.result?.tools ?? []).map((tool) => tool.name)
}

interface LongRunning {
  readonly firstLine: string
  stderr(): string
  stop(): Promise<number | null>
}

/** Starts an installed long-running command and waits for the line that says it is up. */
async function longRunning(args: readonly string[], isUp: (line: string) => boolean): Promise<LongRunning> {
  const child = spawn(bin, args, { cwd: repo.path, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const firstLine = await new Promise<string>((resolve, reject) => {
    let pending = ''
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8')
      const complete = pending.split('\n').slice(0, -1)
      const line = complete.find(isUp)
      if (line !== undefined) resolve(line)
    })
    void exited.then((code) => reject(new Error(`sangam ${args.join(' ')} exited ${code}: ${stderr}`)))
  })
  return {
    firstLine,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}
