import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { cliEntry } from '../helpers/run-cli.ts'
import { tmpDir } from '../helpers/tmp-git-repo.ts'
import {
  agentClisDir,
  checkAgentClis,
  claudeVersion,
  codexVersion,
  ensureAgentClis,
  ensureGeminiCli,
  geminiCliDir,
  geminiVersion,
  opencodeVersion,
} from './agent-clis.ts'
import { isIsolated, preflight, runInNamespace, startDnsSink } from './network-namespace.ts'

/**
 * `npm run test:agents [filter…]`: the real-CLI suite. Outside the namespace it checks that it
 * can run at all (and fails loudly when it cannot: CI must never pass without having run it),
 * installs the pinned Claude Code and Codex into their cache, and re-runs itself inside fresh
 * network and mount namespaces. Inside, it starts the DNS sink, runs every scenario file with
 * node's test runner, one at a time, and fails if any CLI tried to look up a host name.
 */
const here = import.meta.dirname
const scenarioDir = join(here, 'scenarios')

async function main(): Promise<number> {
  return process.argv.includes('--inside') ? inside(filters()) : outside()
}

async function outside(): Promise<number> {
  const check = preflight()
  if (!check.ok) return cannotRun(check.reason)
  if (!existsSync(cliEntry)) return cannotRun(`${cliEntry} is missing: run npm run build first`)
  const dir = agentClisDir(process.env)
  const log = (line: string): void => console.error(`agents: ${line}`)
  await using scratch = tmpDir('sangam-agents-version-')
  const selected = scenarioFiles(filters())
  if (selected.some(drivesClaudeCodexOpencode)) {
    checkAgentClis(ensureAgentClis(dir, log), scratch.path)
    log(`Claude Code ${claudeVersion}, Codex ${codexVersion} and opencode ${opencodeVersion} from ${dir}`)
  }
  const geminiDir = geminiCliDir(process.env)
  if (selected.some(drivesGemini)) {
    ensureGeminiCli(geminiDir, scratch.path, log)
    log(`Gemini CLI ${geminiVersion} from ${geminiDir}`)
  }
  const self = join(here, 'run-agents.ts')
  return runInNamespace([process.execPath, '--import', 'tsx', self, '--inside', ...filters()], {
    ...process.env,
    SANGAM_AGENT_CLIS: dir,
    SANGAM_GEMINI_CLI: geminiDir,
  })
}

async function inside(only: readonly string[]): Promise<number> {
  if (!isIsolated())
    return cannotRun('--inside was given but this process is not in an isolated network namespace')
  const files = scenarioFiles(only).map((name) => join(scenarioDir, name))
  if (files.length === 0) return cannotRun(`no scenario matches ${only.join(' ')}`)
  const dns = await startDnsSink()
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-timeout=600000', ...files],
      { stdio: 'inherit' },
    )
    child.on('close', (status) => resolve(status ?? 1))
  })
  await dns.close()
  if (dns.lookups.length > 0) {
    console.error(
      `agents: FAILED: the CLIs tried to reach the network: ${[...new Set(dns.lookups)].join(', ')}`,
    )
    return 1
  }
  console.error('agents: no host name was looked up: every CLI stayed on 127.0.0.1')
  return code
}

function scenarioFiles(only: readonly string[]): string[] {
  return readdirSync(scenarioDir)
    .filter((name) => name.endsWith('.scenario.ts'))
    .filter((name) => only.length === 0 || only.some((filter) => name.includes(filter)))
    .sort()
}

/**
 * Which CLIs a scenario file drives, by its name: Gemini's (`gemini-*`) need only Gemini CLI, a
 * mixed team's (`mixed-*`) every vendor, the others Claude Code, Codex and opencode (one cache
 * folder).
 */
function drivesGemini(name: string): boolean {
  return name.startsWith('gemini-') || name.startsWith('mixed-')
}

function drivesClaudeCodexOpencode(name: string): boolean {
  return !name.startsWith('gemini-')
}

function cannotRun(reason: string): number {
  const bar = '='.repeat(78)
  console.error(`${bar}\nTHE REAL CLAUDE CODE / CODEX / GEMINI CLI SUITE DID NOT RUN: ${reason}\n${bar}`)
  return 1
}

function filters(): string[] {
  return process.argv.slice(2).filter((arg) => arg !== '--inside')
}

process.exitCode = await main()
