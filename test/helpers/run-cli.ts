import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { collectOutput } from './child-output.ts'

export const projectRoot = join(import.meta.dirname, '..', '..')
/** Tests run the compiled CLI, as users and hooks do; `npm test` builds it first. */
export const cliEntry = join(projectRoot, 'dist', 'cli', 'main.js')
/** The bundled MCP server that `init` registers with Claude Code and Codex. */
export const mcpEntry = join(projectRoot, 'dist', 'mcp', 'mcp-main.cjs')

export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export interface CliOptions {
  readonly cwd: string
  readonly env?: Record<string, string | undefined> | undefined
  readonly input?: string | undefined
  readonly timeoutMs?: number | undefined
  /** Another path to this build's CLI (a symlink standing for sangam installed elsewhere). */
  readonly entry?: string | undefined
}

/** An environment with its own HOME, SANGAM_HOME, CLAUDE_CONFIG_DIR and CODEX_HOME under `home`. */
export function isolatedEnv(
  home: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    SANGAM_HOME: join(home, '.sangam'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    SANGAM_LOG: 'warn',
    ...extra,
  }
}

/**
 * This build installed at another path under `dir` (its `dist/` copied, `node_modules` linked), as
 * sangam sits elsewhere on another machine: what it writes names that path. Answers the CLI entry
 * to run it by (`entry` in `CliOptions`).
 */
export function installedElsewhere(dir: string): string {
  const root = join(dir, 'elsewhere', 'sangam')
  if (existsSync(join(root, 'node_modules'))) return join(root, 'dist', 'cli', 'main.js')
  mkdirSync(root, { recursive: true })
  cpSync(join(projectRoot, 'dist'), join(root, 'dist'), { recursive: true })
  copyFileSync(join(projectRoot, 'package.json'), join(root, 'package.json'))
  symlinkSync(join(projectRoot, 'node_modules'), join(root, 'node_modules'))
  return join(root, 'dist', 'cli', 'main.js')
}

/** Runs `sangam <args>` to completion. */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  if (!existsSync(cliEntry)) throw new Error(`${cliEntry} is missing: run npm run build first`)
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options)
    const output = collectOutput(child)
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : 1), stdout: output.stdout, stderr: output.stderr })
    })
    if (options.input !== undefined) child.stdin?.end(options.input)
    else child.stdin?.end()
  })
}

/** Starts `sangam <args>` and returns the child (for `up`, `mcp`); the caller ends it. */
export function spawnCli(args: readonly string[], options: CliOptions): ChildProcess {
  return spawnNode([options.entry ?? cliEntry, ...args], options)
}

/** Starts `node <args>` (another entry of this build, such as `mcpEntry`) in a clean environment. */
export function spawnNode(args: readonly string[], options: CliOptions): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: options.cwd,
    env: cleanEnv(options.env ?? { PATH: process.env.PATH }),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
}

/** Runs the CLI and parses stdout as JSON (adds --json). Throws with stderr when it exits non-zero. */
export async function runCliJson<T = unknown>(args: readonly string[], options: CliOptions): Promise<T> {
  const result = await runCli([...args, '--json'], options)
  if (result.code !== 0) {
    throw new Error(
      `sangam ${args.join(' ')} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    )
  }
  return JSON.parse(result.stdout) as T
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return out
}
