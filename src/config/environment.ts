import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Everything sangam takes from the process environment, read once at an entry point and passed
 * down. No code outside config/ reads `process.env`.
 */
export interface Environment {
  /** Where sangam keeps its databases (`SANGAM_HOME`, default `~/.sangam`). */
  readonly sangamHome: string
  /** Claude Code's config dir (`CLAUDE_CONFIG_DIR`, default `~/.claude`); transcripts live under `projects/`. */
  readonly claudeConfigDir: string
  /** Codex's home (`CODEX_HOME`, default `~/.codex`); rollouts live under `sessions/` and `archived_sessions/`. */
  readonly codexHome: string
  /** Gemini CLI's dir (`$GEMINI_CLI_HOME/.gemini`, default `~/.gemini`); sessions live under `tmp/<project>/chats/`. */
  readonly geminiDir: string
  /**
   * opencode's data dir (`$XDG_DATA_HOME/opencode`, default `~/.local/share/opencode`); its sessions
   * live in `opencode.db` there (1.2+).
   */
  readonly opencodeDataDir: string
  /** opencode's user config dir (`$XDG_CONFIG_HOME/opencode`, default `~/.config/opencode`). */
  readonly opencodeConfigDir: string
  /** The human's name as given by `SANGAM_USER`; when absent, git's `user.email`/`user.name` decide. */
  readonly user: string | undefined
  /** `CLAUDE_CODE_SESSION_ID` when we run inside a Claude Code session (MCP server, hooks). */
  readonly claudeSessionId: string | undefined
  /**
   * `CODEX_THREAD_ID`: Codex sets it for the commands its agent runs (the session id its hooks see);
   * it does not give it to MCP servers (openai/codex#19937).
   */
  readonly codexThreadId: string | undefined
  /**
   * `SANGAM_CODEX_ENDPOINT` and `SANGAM_CODEX_LAUNCHER`: set by `sangam codex` for the Codex
   * app-server it starts (and so for that server's hooks): the server's `unix://` socket and the
   * launcher's process id. A Codex hook that sees them records its session's endpoint.
   */
  readonly codexEndpoint: string | undefined
  readonly codexLauncherPid: number | undefined
  /** `CLAUDE_PROJECT_DIR`: the launch root of the Claude Code session that started us. */
  readonly claudeProjectDir: string | undefined
  /** `SANGAM_LOG`: debug | info | warn | error | silent. */
  readonly logLevel: string | undefined
  /**
   * `SANGAM_INTEGRATOR`: set only by sangam's integration on the git commands that move `main`;
   * the main guard (lanes/services/main-guard-file.ts) lets a push through when it matches.
   */
  readonly integrator: string | undefined
  /**
   * The names of the variables present that mark this process as run by an agent (`agentMarkersIn`):
   * a post from a process carrying any of them is never taken for a person's (D270).
   */
  readonly agentMarkers: readonly string[]
  /** `PATH`, to tell whether `sangam` by name is this CLI (`init` registers the MCP server so). */
  readonly path: string | undefined
  /**
   * The caller's whole environment, for a vendor CLI sangam asks something (`claude agents
   * --json`): it must see the config dir, home and settings the user's own sessions run with (a
   * `CLAUDE_CONFIG_DIR`, or a flag that keeps it off the network), or it answers for someone else.
   */
  readonly vendorCliEnv: Readonly<Record<string, string>>
}

export function readEnvironment(env: Readonly<Record<string, string | undefined>>): Environment {
  const home = nonEmpty(env.HOME) ?? homedir()
  return Object.freeze({
    sangamHome: resolve(nonEmpty(env.SANGAM_HOME) ?? join(home, '.sangam')),
    claudeConfigDir: resolve(nonEmpty(env.CLAUDE_CONFIG_DIR) ?? join(home, '.claude')),
    codexHome: resolve(nonEmpty(env.CODEX_HOME) ?? join(home, '.codex')),
    geminiDir: resolve(nonEmpty(env.GEMINI_CLI_HOME) ?? home, '.gemini'),
    opencodeDataDir: resolve(nonEmpty(env.XDG_DATA_HOME) ?? join(home, '.local', 'share'), 'opencode'),
    opencodeConfigDir: resolve(nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, '.config'), 'opencode'),
    user: nonEmpty(env.SANGAM_USER),
    claudeSessionId: nonEmpty(env.CLAUDE_CODE_SESSION_ID),
    codexThreadId: nonEmpty(env.CODEX_THREAD_ID),
    codexEndpoint: nonEmpty(env.SANGAM_CODEX_ENDPOINT),
    codexLauncherPid: pidOf(env.SANGAM_CODEX_LAUNCHER),
    claudeProjectDir: nonEmpty(env.CLAUDE_PROJECT_DIR),
    logLevel: nonEmpty(env.SANGAM_LOG),
    integrator: nonEmpty(env.SANGAM_INTEGRATOR),
    agentMarkers: Object.freeze(agentMarkersIn(env)),
    path: nonEmpty(env.PATH),
    vendorCliEnv: Object.freeze(
      Object.fromEntries(
        Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
    ),
  })
}

/**
 * The variables an agent's process carries and a person's shell does not: what Claude Code sets
 * for the commands, hooks and MCP servers it runs, what sangam sets on the turns it starts
 * (`SANGAM_DELIVERY_TURN`) and on the Codex app-server `sangam codex` starts, and every `CODEX_*`
 * variable (Codex sets `CODEX_THREAD_ID`, `CODEX_SANDBOX*`, `CODEX_CI`, `CODEX_MANAGED_BY_*`,
 * `CODEX_NETWORK_PROXY_*`, and adds more between versions) except the settings a person exports
 * in their own shell profile.
 */
const agentVariables: readonly string[] = [
  'CLAUDECODE',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_CODE_EXECPATH',
  'CLAUDE_ENV_FILE',
  'SANGAM_DELIVERY_TURN',
  'SANGAM_CODEX_ENDPOINT',
  'SANGAM_CODEX_LAUNCHER',
]
const codexSettings: readonly string[] = ['CODEX_HOME', 'CODEX_API_KEY', 'CODEX_CA_CERTIFICATE']

/** The names, sorted, of the agent-marking variables set (non-empty) in `env`. */
export function agentMarkersIn(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter(
      (name) =>
        nonEmpty(env[name]) !== undefined &&
        (agentVariables.includes(name) || (name.startsWith('CODEX_') && !codexSettings.includes(name))),
    )
    .sort()
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value
}

function pidOf(value: string | undefined): number | undefined {
  const text = nonEmpty(value)?.trim()
  if (text === undefined || !/^[1-9][0-9]{0,9}$/.test(text)) return undefined
  return Number(text)
}
