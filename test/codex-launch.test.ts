import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCli } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/**
 * `sangam codex` when Codex cannot serve it: not installed, an app-server that dies before it
 * listens, a data dir too deep for a Unix socket. The working launch, with the real Codex, is
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
