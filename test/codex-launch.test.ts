import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { isAlive } from '../src/shared/process-alive.ts'
import { isolatedEnv, runCli, spawnCli } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/**
 * `sangam codex` when Codex cannot serve it: not installed, an app-server that dies before it
 * listens, a data dir too deep for a Unix socket; and a launcher SIGKILLed under a stand-in Codex
 * whose app-server must not outlive it. The working launch, with the real Codex, is
 * test/agents/scenarios/codex-wake.scenario.ts.
 */

/** A `codex` on PATH whose app-server exits at once, as a broken install would. */
function brokenCodex(dir: string): string {
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  const script = join(bin, 'codex')
  writeFileSync(script, '#!/bin/sh\necho "codex: config.toml: unknown field" >&2\nexit 3\n')
  chmodSync(script, 0o755)
  return bin
}

test('sangam codex without Codex installed exits 13 saying how to install it, and starts nothing', async () => {
  await using repo = tmpGitRepo()
  await using home = tmpDir('sangam-codex-home-')
  const env = isolatedEnv(home.path, { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` })
  const result = await runCli(['codex', '--json', 'hello'], { cwd: repo.path, env })
  assert.equal(result.code, 13, result.stderr)
  const error = (JSON.parse(result.stdout) as { error: { code: string; message: string } }).error
  assert.equal(error.code, 'VENDOR_CLI_UNAVAILABLE')
  assert.match(error.message, /codex is not installed: .*npm install -g @openai\/codex/)
  assert.equal(existsSync(join(home.path, '.sangam', 'codex')), false, 'no socket directory was made')
})

test('sangam codex whose app-server exits before listening exits 13 with what Codex said, leaving no socket', async () => {
  await using repo = tmpGitRepo()
  await using home = tmpDir('sangam-codex-home-')
  const bin = brokenCodex(home.path)
  const env = isolatedEnv(home.path, { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` })
  const result = await runCli(['codex', '--json'], { cwd: repo.path, env })
  assert.equal(result.code, 13, result.stderr)
  const error = (JSON.parse(result.stdout) as { error: { code: string; message: string } }).error
  assert.equal(error.code, 'VENDOR_CLI_UNAVAILABLE')
  assert.match(
    error.message,
    /codex app-server exited \(3\) before it listened: codex: config\.toml: unknown field/,
  )
  assert.deepEqual(readdirSync(join(home.path, '.sangam', 'codex')), [], 'the socket directory is left empty')
})

test('sangam codex under a data dir too deep for a Unix socket path exits 7 naming the limit', async () => {
  await using repo = tmpGitRepo()
  await using home = tmpDir('sangam-codex-home-')
  const bin = brokenCodex(home.path)
  const deep = join(home.path, 'd'.repeat(60), 'e'.repeat(40))
  const env = isolatedEnv(home.path, {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    SANGAM_HOME: deep,
  })
  const result = await runCli(['codex', '--json'], { cwd: repo.path, env })
  assert.equal(result.code, 7, result.stderr)
  assert.match(result.stdout, /over the 107 a Unix socket path may be; use a shorter SANGAM_HOME/)
})

/**
 * A `codex` whose app-server listens on its `--listen unix://PATH` and whose TUI (`--remote`) just
 * waits, each writing `<role> <pid>` to `$FAKE_CODEX_PIDS`; neither watches its parent.
 */
function listeningCodex(dir: string): string {
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  const script = join(bin, 'codex')
  writeFileSync(
    script,
    `#!${process.execPath}
const { appendFileSync } = require('node:fs')
const { createServer } = require('node:net')
const args = process.argv.slice(2)
const note = (role) => appendFileSync(process.env.FAKE_CODEX_PIDS, role + ' ' + process.pid + '\\n')
if (args[0] === 'app-server') {
  const path = args[args.indexOf('--listen') + 1].replace('unix://', '')
  createServer((connection) => connection.destroy()).listen(path, () => note('server'))
} else if (args[0] === '--remote') {
  note('tui')
  setInterval(() => {}, 60000)
}
`,
  )
  chmodSync(script, 0o755)
  return bin
}

async function waitFor<T>(what: string, probe: () => T | null, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== null) return value
    assert.ok(Date.now() < deadline, `${what} within ${timeoutMs} ms`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

test('a SIGKILLed sangam codex takes its app-server with it and removes the socket', async () => {
  await using repo = tmpGitRepo()
  await using home = tmpDir('sangam-codex-home-')
  const bin = listeningCodex(home.path)
  const pids = join(home.path, 'pids')
  writeFileSync(pids, '')
  const env = isolatedEnv(home.path, {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    FAKE_CODEX_PIDS: pids,
  })
  const launcher = spawnCli(['codex', 'hello'], { cwd: repo.path, env })
  const exited = new Promise((resolve) => launcher.once('exit', resolve))
  const pidOf = (role: string): number | null => {
    const line = readFileSync(pids, 'utf8')
      .split('\n')
      .find((each) => each.startsWith(`${role} `))
    return line === undefined ? null : Number(line.split(' ')[1])
  }
  const tui = await waitFor('the TUI starting against the server', () => pidOf('tui'))
  try {
    const server = pidOf('server')
    assert.ok(server !== null && isAlive(server), 'the app-server listens')
    const socketDir = join(home.path, '.sangam', 'codex')
    assert.deepEqual(readdirSync(socketDir), [`app-server-${launcher.pid}.sock`])

    launcher.kill('SIGKILL')
    await exited
    await waitFor('the app-server ending after its launcher', () => (isAlive(server) ? null : true))
    await waitFor('the socket removed', () => (readdirSync(socketDir).length === 0 ? true : null))
  } finally {
    // The stand-in TUI is ours to end (a real one exits when its server goes).
    if (isAlive(tui)) process.kill(tui, 'SIGKILL')
  }
})
