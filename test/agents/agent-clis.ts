import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The real agent CLIs this suite drives, pinned, installed from the npm registry into a cache
 * outside the repository (`$SANGAM_AGENT_CLIS`, default `~/.cache/sangam/agent-clis/<versions>`),
 * once. Both ship a native binary in a platform sub-package fetched like any package, so nothing
 * but the registry is contacted. Claude Code declares `engines.node >=22`, but its `claude` is a
 * native binary: on Node 20 npm only warns (EBADENGINE).
 */
export const claudeVersion = '2.1.332'
export const codexVersion = '0.171.0'
/**
 * Gemini CLI is plain JavaScript (`bundle/gemini.js`, about 100 MB with its optional native
 * pty), installed into its own cache folder so that a suite of only Gemini scenarios does not
 * fetch the other two.
 */
export const geminiVersion = '0.61.0'
/**
 * opencode's npm package `opencode-ai` is a launcher whose postinstall copies the native binary of
 * its platform package (`opencode-linux-x64`) over `bin/opencode.exe`, like Claude Code's.
 */
export const opencodeVersion = '1.18.33'

export interface AgentClis {
  readonly claude: string
  readonly codex: string
  readonly opencode: string
  /** Directory holding both executables; put it first on PATH (install-hooks finds `codex` there). */
  readonly binDir: string
}

export function agentClisDir(env: Readonly<Record<string, string | undefined>>): string {
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache')
  return (
    env.SANGAM_AGENT_CLIS ||
    join(
      cache,
      'sangam',
      'agent-clis',
      `claude-${claudeVersion}_codex-${codexVersion}_opencode-${opencodeVersion}`,
    )
  )
}

export function agentClisIn(dir: string): AgentClis {
  const binDir = join(dir, 'node_modules', '.bin')
  return {
    claude: join(binDir, 'claude'),
    codex: join(binDir, 'codex'),
    opencode: join(binDir, 'opencode'),
    binDir,
  }
}

export function geminiCliDir(env: Readonly<Record<string, string | undefined>>): string {
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache')
  return env.SANGAM_GEMINI_CLI || join(cache, 'sangam', 'agent-clis', `gemini-${geminiVersion}`)
}

/** The `gemini` executable of a cache folder. */
export function geminiCliIn(dir: string): string {
  return join(dir, 'node_modules', '.bin', 'gemini')
}

/** Installs the pinned Gemini CLI unless the cache already holds exactly it; checks its version. */
export function ensureGeminiCli(dir: string, scratchHome: string, log: (line: string) => void): string {
  if (installedVersion(dir, '@google/gemini-cli') !== geminiVersion) {
    log(`installing @google/gemini-cli@${geminiVersion} into ${dir}`)
    npmInstallExact(dir, 'sangam-gemini-cli', [`@google/gemini-cli@${geminiVersion}`], 'Gemini CLI')
  }
  const gemini = geminiCliIn(dir)
  const result = spawnSync(gemini, ['--version'], {
    env: { PATH: process.env.PATH, HOME: scratchHome },
    encoding: 'utf8',
    timeout: 60_000,
  })
  if (!result.stdout.includes(geminiVersion))
    throw new Error(
      `${gemini} --version printed "${result.stdout.trim()}" ${result.stderr.trim()}; expected ${geminiVersion}`,
    )
  return gemini
}

/** Installs the pinned CLIs unless the cache already holds exactly them; returns their paths. */
export function ensureAgentClis(dir: string, log: (line: string) => void): AgentClis {
  const clis = agentClisIn(dir)
  if (
    installedVersion(dir, '@anthropic-ai/claude-code') === claudeVersion &&
    installedVersion(dir, '@openai/codex') === codexVersion &&
    installedVersion(dir, 'opencode-ai') === opencodeVersion
  ) {
    return clis
  }
  log(
    `installing @anthropic-ai/claude-code@${claudeVersion}, @openai/codex@${codexVersion} and opencode-ai@${opencodeVersion} into ${dir}`,
  )
  npmInstallExact(
    dir,
    'sangam-agent-clis',
    [
      `@anthropic-ai/claude-code@${claudeVersion}`,
      `@openai/codex@${codexVersion}`,
      `opencode-ai@${opencodeVersion}`,
    ],
    'the agent CLIs',
  )
  placeClaudeBinary(dir)
  placeOpencodeBinary(dir)
  return clis
}

/**
 * `npm install` of exact versions into the cache folder `dir`, made a private package of its own
 * (`name`) so that npm installs there and not into an enclosing project.
 */
function npmInstallExact(dir: string, name: string, specs: readonly string[], what: string): void {
  mkdirSync(dir, { recursive: true })
  if (!existsSync(join(dir, 'package.json')))
    writeFileSync(join(dir, 'package.json'), `{"name":"${name}","private":true}\n`)
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', dir, '--no-audit', '--no-fund', '--save-exact', ...specs],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      encoding: 'utf8',
    },
  )
  if (npm.status !== 0) throw new Error(`npm install of ${what} failed (exit ${npm.status})`)
}

/** Runs `--version` of each CLI and checks it is the pinned one. */
export function checkAgentClis(clis: AgentClis, scratchHome: string): void {
  const env = {
    PATH: `${clis.binDir}:${process.env.PATH}`,
    HOME: scratchHome,
    CODEX_HOME: join(scratchHome, '.codex'),
  }
  mkdirSync(env.CODEX_HOME, { recursive: true })
  for (const [bin, version] of [
    [clis.claude, claudeVersion],
    [clis.codex, codexVersion],
    [clis.opencode, opencodeVersion],
  ] as const) {
    const result = spawnSync(bin, ['--version'], { env, encoding: 'utf8', timeout: 60_000 })
    if (!result.stdout.includes(version)) {
      throw new Error(
        `${bin} --version printed "${result.stdout.trim()}" ${result.stderr.trim()}; expected ${version}`,
      )
    }
  }
}

function installedVersion(dir: string, name: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as {
      version?: unknown
    }
    return typeof manifest.version === 'string' ? manifest.version : null
  } catch {
    return null
  }
}

/**
 * npm 11 may skip Claude Code's postinstall (its allowScripts policy), which only copies the native
 * binary from the platform package over the `bin/claude.exe` placeholder; do it here when needed.
 */
function placeClaudeBinary(dir: string): void {
  const placeholder = join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe')
  const native = join(dir, 'node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude')
  if (existsSync(native) && existsSync(placeholder) && statSync(placeholder).size < 1_000_000) {
    copyFileSync(native, placeholder)
    chmodSync(placeholder, 0o755)
  }
}

/** The same for opencode's postinstall (`opencode-ai/postinstall.mjs`), should npm skip it. */
function placeOpencodeBinary(dir: string): void {
  const placeholder = join(dir, 'node_modules', 'opencode-ai', 'bin', 'opencode.exe')
  const native = join(dir, 'node_modules', 'opencode-linux-x64', 'bin', 'opencode')
  if (existsSync(native) && (!existsSync(placeholder) || statSync(placeholder).size < 1_000_000)) {
    copyFileSync(native, placeholder)
    chmodSync(placeholder, 0o755)
  }
}
