import { realpathSync } from 'node:fs'
import { delimiter, dirname, join, resolve, sep } from 'node:path'
import { parse as parseToml } from 'smol-toml'
import { mcpServerName, opencodeSchema } from '../own-files/core/our-entries.ts'
import { readText, writeTextAtomically } from '../own-files/services/config-file.ts'
import { isRecord } from '../shared/is-record.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/** How a host starts our MCP server. */
export interface McpLaunch {
  readonly command: string
  readonly args: readonly string[]
}

export type McpHost = 'claude' | 'codex' | 'gemini' | 'opencode'

/** What each host is told to run. */
export type McpLaunches = Readonly<Record<McpHost, McpLaunch>>

export interface McpRegistration {
  readonly host: McpHost
  readonly file: string
  /**
   * added: the entry was written. registered: an identical entry was there already. kept: a
   * different `sangam` entry was there; it is the user's and was left as it was.
   */
  readonly outcome: 'added' | 'registered' | 'kept'
  /** What this host was told to run. */
  readonly launch: McpLaunch
  /** The file did not exist before this registration wrote it. */
  readonly created: boolean
}

/**
 * Codex starts MCP servers with a short list of its own environment variables; these tell the
 * server which database and which human (Claude Code passes its whole environment).
 */
const passedThrough = ['SANGAM_HOME', 'SANGAM_USER', 'SANGAM_LOG']

/**
 * What the hosts run: this very package's bundled MCP server (`dist/mcp/mcp-main.cjs`, which starts
 * far faster than the CLI's `mcp` command; docs/performance.md), by absolute path, under the node
 * that runs it now (D18). It does not depend on PATH, which hosts started from a desktop lack, and
 * it is the same version as the `sangam` that registered it.
 */
export function sangamLaunch(nodePath: string, cliEntry: string): McpLaunch {
  return { command: nodePath, args: [mcpServerEntry(cliEntry)] }
}

/** The bundled MCP server of the package whose CLI is `cliEntry` (dist/cli/main.js, or src/ under tsx). */
export function mcpServerEntry(cliEntry: string): string {
  return join(resolve(dirname(cliEntry), '..', '..'), 'dist', 'mcp', 'mcp-main.cjs')
}

/**
 * `sangam-mcp` by name: the bundled server as npm links it beside `sangam` (package.json `bin`),
 * what works on every machine where sangam is installed (D82) and starts as fast as the absolute
 * launch.
 */
export const portableLaunch: McpLaunch = { command: 'sangam-mcp', args: [] }

/**
 * Whether `sangam-mcp` on `pathVariable` (PATH) is this very package's MCP server, the way a global
 * or project install links it: then a project file may name it by name and it means the same here
 * as on a teammate's machine. A checkout's build, run by path, is not on PATH; nor is `npx sangam`'s
 * package, whose folder npm puts on PATH for that one command only (D364).
 */
export function isSangamOnPath(pathVariable: string | undefined, cliEntry: string): boolean {
  const entry = realOrNull(mcpServerEntry(cliEntry))
  if (entry === null || pathVariable === undefined) return false
  return pathVariable
    .split(delimiter)
    .filter((dir) => dir !== '' && !isNpxRunDir(dir))
    .some((dir) => realOrNull(join(dir, 'sangam-mcp')) === entry)
}

/** npm's per-package folder for `npx` (`<cache>/_npx/<hash>/node_modules/.bin`). */
function isNpxRunDir(dir: string): boolean {
  return dir.split(sep).includes('_npx')
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

export interface McpTargets {
  /** The worktree whose `.mcp.json` Claude Code reads. */
  readonly projectRoot: string
  /** `$CODEX_HOME`, whose `config.toml` Codex reads. */
  readonly codexHome: string
  /** Register with opencode too (the project uses it: `.opencode/` or `opencode.json`; D464). */
  readonly opencode: boolean
}

/** The hosts registered, in order. */
export const mcpHosts: readonly McpHost[] = ['claude', 'codex', 'opencode']

/**
 * Registers the server with Claude Code (the project's `.mcp.json`), Codex (`config.toml`) and
 * Gemini CLI (the project's `.gemini/settings.json`) and opencode (the project's `opencode.json`, where
 * the project uses opencode), idempotently. Both files are read and their new text worked out before either is written, so a
 * file that cannot be used stops the whole registration with nothing changed.
 */
export function registerMcpServer(targets: McpTargets, launches: McpLaunches): McpRegistration[] {
  const prepared = [
    forClaude(targets.projectRoot, launches.claude),
    forCodex(targets.codexHome, launches.codex),
    forGemini(targets.projectRoot, launches.gemini),
    ...(targets.opencode ? [forOpencode(targets.projectRoot, launches.opencode)] : []),
  ]
  for (const { registration, text } of prepared)
    if (text !== null) writeTextAtomically(registration.file, text)
  return prepared.map((entry) => entry.registration)
}

/** A registration worked out, and the file's new text (null when nothing needs writing). */
interface Prepared {
  readonly registration: McpRegistration
  readonly text: string | null
}

/** `{"mcpServers": {"sangam": …}}` added to the project's `.mcp.json`, all else kept. */
function forClaude(projectRoot: string, launch: McpLaunch): Prepared {
  const file = join(projectRoot, '.mcp.json')
  const text = readText(file)
  const config = text === null || text.trim() === '' ? {} : parseJsonObject(text, file)
  const servers = config.mcpServers ?? {}
  if (!isRecord(servers)) throw unusable(file, '"mcpServers" is not an object')
  const existing = servers[mcpServerName]
  if (existing !== undefined) return unchanged('claude', file, existing, launch)
  const entry = { type: 'stdio', command: launch.command, args: [...launch.args], env: {} }
  const updated = { ...config, mcpServers: { ...servers, [mcpServerName]: entry } }
  return {
    registration: { host: 'claude', file, outcome: 'added', launch, created: text === null },
    text: `${JSON.stringify(updated, null, 2)}\n`,
  }
}

/**
 * `{"mcpServers": {"sangam": {command, args}}}` in the project's `.gemini/settings.json`, beside
 * whatever else it holds (sangam's hooks among them). Gemini CLI passes its own environment to a
 * stdio server, less what looks like a secret, so `SANGAM_HOME` and `SANGAM_USER` reach it.
 */
function forGemini(projectRoot: string, launch: McpLaunch): Prepared {
  const file = join(projectRoot, '.gemini', 'settings.json')
  const text = readText(file)
  const config = text === null || text.trim() === '' ? {} : parseJsonObject(text, file)
  const servers = config.mcpServers ?? {}
  if (!isRecord(servers)) throw unusable(file, '"mcpServers" is not an object')
  const existing = servers[mcpServerName]
  if (existing !== undefined) return unchanged('gemini', file, existing, launch)
  const entry = { command: launch.command, args: [...launch.args] }
  const updated = { ...config, mcpServers: { ...servers, [mcpServerName]: entry } }
  return {
    registration: { host: 'gemini', file, outcome: 'added', launch, created: text === null },
    text: `${JSON.stringify(updated, null, 2)}\n`,
  }
}

/**
 * `{"mcp": {"sangam": {"type": "local", "command": [...]}}}` added to the project's `opencode.json`
 * (opencode's config schema: a local server's `command` is the program and its arguments in one
 * list), every other key kept. A file with comments (JSONC) is not rewritten: it stops with what to add.
 */
function forOpencode(projectRoot: string, launch: McpLaunch): Prepared {
  const file = join(projectRoot, 'opencode.json')
  const text = readText(file)
  const config = text === null || text.trim() === '' ? {} : parseJsonObject(text, file)
  const servers = config.mcp ?? {}
  if (!isRecord(servers)) throw unusable(file, '"mcp" is not an object')
  const command = [launch.command, ...launch.args]
  const existing = servers[mcpServerName]
  if (existing !== undefined) {
    const same =
      isRecord(existing) &&
      Array.isArray(existing.command) &&
      existing.command.length === command.length &&
      existing.command.every((part, i) => part === command[i])
    return {
      registration: { host: 'opencode', file, outcome: same ? 'registered' : 'kept', launch, created: false },
      text: null,
    }
  }
  const entry = { type: 'local', command, enabled: true }
  const updated = {
    ...(text === null ? { $schema: opencodeSchema } : {}),
    ...config,
    mcp: { ...servers, [mcpServerName]: entry },
  }
  return {
    registration: { host: 'opencode', file, outcome: 'added', launch, created: text === null },
    text: `${JSON.stringify(updated, null, 2)}\n`,
  }
}

/**
 * `[mcp_servers.sangam]` appended to Codex's `config.toml`. The file is the user's: the table is
 * added as text, never by re-serialising what was parsed, so comments and layout survive; the
 * result is parsed again to prove it says what we meant.
 */
function forCodex(codexHome: string, launch: McpLaunch): Prepared {
  const file = join(codexHome, 'config.toml')
  const original = readText(file)
  const text = original ?? ''
  const existing = codexServers(text, file)[mcpServerName]
  if (existing !== undefined) return unchanged('codex', file, existing, launch)
  const block = [
    `[mcp_servers.${mcpServerName}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
    `env_vars = [${passedThrough.map(tomlString).join(', ')}]`,
  ].join('\n')
  const separator = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n'
  const updated = `${text}${separator}${block}\n`
  let added: unknown
  try {
    added = codexServers(updated, file)[mcpServerName]
  } catch {
    added = undefined
  }
  if (!sameLaunch(added, launch)) {
    throw unusable(
      file,
      `its mcp_servers cannot take another table (an inline table?); add this by hand:\n${block}`,
    )
  }
  return {
    registration: { host: 'codex', file, outcome: 'added', launch, created: original === null },
    text: updated,
  }
}

function unchanged(host: McpHost, file: string, existing: unknown, launch: McpLaunch): Prepared {
  return {
    registration: {
      host,
      file,
      outcome: sameLaunch(existing, launch) ? 'registered' : 'kept',
      launch,
      created: false,
    },
    text: null,
  }
}

function codexServers(text: string, file: string): Record<string, unknown> {
  let parsed: Record<string, unknown>
  try {
    parsed = parseToml(text) as Record<string, unknown>
  } catch (error) {
    throw unusable(file, `it is not valid TOML (${(error as Error).message.split('\n')[0]})`)
  }
  const servers = parsed.mcp_servers ?? {}
  if (!isRecord(servers)) throw unusable(file, 'mcp_servers is not a table')
  return servers
}

function sameLaunch(entry: unknown, launch: McpLaunch): boolean {
  if (!isRecord(entry) || entry.command !== launch.command || !Array.isArray(entry.args)) return false
  return entry.args.length === launch.args.length && entry.args.every((arg, i) => arg === launch.args[i])
}

/** A TOML basic string: JSON's escapes are TOML's, except that TOML also wants DEL escaped. */
function tomlString(value: string): string {
  return JSON.stringify(value).replaceAll('\u007f', '\\u007F')
}

function parseJsonObject(text: string, file: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw unusable(file, `it is not valid JSON (${(error as Error).message})`)
  }
  if (!isRecord(value)) throw unusable(file, 'it does not hold a JSON object')
  return value
}

function unusable(file: string, why: string): SangamError {
  return new SangamError(
    ErrorCode.InvalidInput,
    `cannot register the MCP server in ${file}: ${why}. The file was left unchanged.`,
    { file },
  )
}
