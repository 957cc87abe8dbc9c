import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { parse } from 'smol-toml'
import { canRunInTerminal, runInTerminal } from './helpers/pseudo-terminal.ts'
import { cliEntry, isolatedEnv, mcpEntry, runCli, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'

interface InitMcp {
  mcp: {
    status: string
    launches: Record<'claude' | 'codex', { command: string; args: string[] }>
    portable: boolean
    excludedIn: string | null
    hosts: { host: string; file: string; outcome: string }[]
  }
}

test('init --yes registers the server with Claude Code, Codex, Gemini CLI and opencode, and a second run changes nothing', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  // A project that uses opencode (D464).
  mkdirSync(join(repo.path, '.opencode'))
  const env = isolatedEnv(home.path)
  const first = await runCliJson<InitMcp>(['init', '--yes'], { cwd: repo.path, env })
  assert.equal(first.mcp.status, 'registered')
  assert.deepEqual(first.mcp.launches.codex, { command: process.execPath, args: [mcpEntry] })
  assert.deepEqual(
    first.mcp.hosts.map((host) => [host.host, host.outcome]),
    [
      ['claude', 'added'],
      ['codex', 'added'],
      ['gemini', 'added'],
      ['opencode', 'added'],
    ],
  )
  const opencode = JSON.parse(readFileSync(join(repo.path, 'opencode.json'), 'utf8')).mcp.sangam
  assert.deepEqual(opencode.command, [process.execPath, mcpEntry])
  const mcpJson = join(repo.path, '.mcp.json')
  const configToml = join(home.path, '.codex', 'config.toml')
  const registered = JSON.parse(readFileSync(mcpJson, 'utf8')).mcpServers.sangam
  assert.deepEqual([registered.command, registered.args], [process.execPath, [mcpEntry]])
  const codex = JSON.parse(JSON.stringify(parse(readFileSync(configToml, 'utf8'))))
  assert.deepEqual(codex.mcp_servers.sangam, {
    command: process.execPath,
    args: [mcpEntry],
    env_vars: ['SANGAM_HOME', 'SANGAM_USER', 'SANGAM_LOG'],
  })
  const before = [readFileSync(mcpJson, 'utf8'), readFileSync(configToml, 'utf8')]
  const second = await runCliJson<InitMcp>(['init', '--yes'], { cwd: repo.path, env })
  assert.deepEqual(
    second.mcp.hosts.map((host) => host.outcome),
    ['registered', 'registered', 'registered', 'registered'],
  )
  assert.deepEqual([readFileSync(mcpJson, 'utf8'), readFileSync(configToml, 'utf8')], before)
})

test('.mcp.json names `sangam-mcp` when it is on PATH from this package, so teammates can commit it', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const bin = join(home.path, 'bin')
  mkdirSync(bin)
  // What `npm install -g` leaves: `sangam` and `sangam-mcp` on PATH, linking into the package's dist/.
  symlinkSync(cliEntry, join(bin, 'sangam'))
  symlinkSync(mcpEntry, join(bin, 'sangam-mcp'))
  const env = isolatedEnv(home.path, { PATH: `${bin}:${process.env.PATH}` })
  const init = await runCliJson<InitMcp>(['init', '--yes'], { cwd: repo.path, env })
  assert.equal(init.mcp.portable, true)
  const registered = JSON.parse(readFileSync(join(repo.path, '.mcp.json'), 'utf8')).mcpServers.sangam
  assert.deepEqual([registered.command, registered.args], ['sangam-mcp', []])
  // Codex's config is this machine's own: the absolute launch, which needs no PATH.
  const codex = parse(readFileSync(join(home.path, '.codex', 'config.toml'), 'utf8')) as {
    mcp_servers: { sangam: { command: string } }
  }
  assert.equal(codex.mcp_servers.sangam.command, process.execPath)
  assert.equal(init.mcp.excludedIn, null)
  const status = spawnSync('git', ['status', '--porcelain'], { cwd: repo.path, encoding: 'utf8' })
  assert.match(status.stdout, /\?\? \.mcp\.json/, 'a portable .mcp.json is for the team to commit')
  const text = await runCli(['init', '--yes'], { cwd: repo.path, env })
  assert.match(text.stdout, /Claude Code: already registered in .*\.mcp\.json as `sangam-mcp`/)
})

test("without sangam on PATH, a .mcp.json naming this machine's path is kept out of git", async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  // The test runner's PATH has no sangam: the CLI under test runs by path, as a checkout's build does.
  const init = await runCliJson<InitMcp>(['init', '--yes'], { cwd: repo.path, env: isolatedEnv(home.path) })
  assert.equal(init.mcp.portable, false)
  const registered = JSON.parse(readFileSync(join(repo.path, '.mcp.json'), 'utf8')).mcpServers.sangam
  assert.deepEqual(registered.args, [mcpEntry])
  assert.ok(init.mcp.excludedIn?.endsWith(join('.git', 'info', 'exclude')), String(init.mcp.excludedIn))
  const status = spawnSync('git', ['status', '--porcelain'], { cwd: repo.path, encoding: 'utf8' })
  assert.doesNotMatch(status.stdout, /\.mcp\.json/, 'git does not offer to commit it')
  assert.match(readFileSync(init.mcp.excludedIn ?? '', 'utf8'), /^\/\.mcp\.json$/m)
})

test('without a terminal and without --yes nothing is registered, and init says how', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const result = await runCli(['init'], { cwd: repo.path, env: isolatedEnv(home.path) })
  assert.equal(result.code, 0)
  assert.match(result.stdout, /mcp\s+not registered: no terminal to ask on; sangam init --yes registers it/)
  assert.equal(existsSync(join(repo.path, '.mcp.json')), false)
  assert.equal(existsSync(join(home.path, '.codex', 'config.toml')), false)
  const skipped = await runCliJson<InitMcp>(['init', '--no-mcp'], {
    cwd: repo.path,
    env: isolatedEnv(home.path),
  })
  assert.equal(skipped.mcp.status, 'skipped')
  assert.equal(existsSync(join(repo.path, '.mcp.json')), false)
})

test('a malformed .mcp.json stops init with exit 2, and neither config file is touched', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const broken = '{"mcpServers": {"other": {"command": "x"},}}'
  writeFileSync(join(repo.path, '.mcp.json'), broken)
  mkdirSync(join(home.path, '.codex'))
  const toml = '# mine\nmodel = "o4"\n'
  writeFileSync(join(home.path, '.codex', 'config.toml'), toml)
  const result = await runCli(['init', '--yes'], { cwd: repo.path, env: isolatedEnv(home.path) })
  assert.equal(result.code, 2)
  assert.match(result.stderr, /\.mcp\.json: it is not valid JSON .*left unchanged/)
  assert.equal(readFileSync(join(repo.path, '.mcp.json'), 'utf8'), broken)
  assert.equal(readFileSync(join(home.path, '.codex', 'config.toml'), 'utf8'), toml)
})

test('on a terminal init asks; no declines, Enter registers', {
  skip: !canRunInTerminal && 'needs util-linux script for a pty',
}, async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const declined = await initOnTerminal(repo.path, isolatedEnv(home.path), 'n\n')
  // Broken at spaces to the terminal's width (D297).
  assert.match(declined, /Register the sangam MCP server\s[\s\S]*\s\[Y\/n\]/)
  assert.match(declined, /"status": "declined"/)
  assert.equal(existsSync(join(repo.path, '.mcp.json')), false)
  const accepted = await initOnTerminal(repo.path, isolatedEnv(home.path), '\n')
  assert.match(accepted, /"status": "registered"/)
  assert.equal(existsSync(join(repo.path, '.mcp.json')), true)
})

/** Runs `sangam init --json` under a pseudo-terminal, typing `input` once the question shows. */
async function initOnTerminal(
  cwd: string,
  env: Record<string, string | undefined>,
  input: string,
): Promise<string> {
  await using run = runInTerminal(['init', '--json'], { cwd, env: { ...env, TERM: 'dumb' } })
  await run.saw(/\[Y\/n\]/)
  run.type(input)
  await run.exited
  return run.screen()
}
