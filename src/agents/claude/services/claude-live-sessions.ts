import { spawnSync } from 'node:child_process'
import { isRecord } from '../../../shared/is-record.ts'

/** Each ask of the `claude` CLI waits at most this long; past it, nothing is known. */
const timeoutMs = 1500

/**
 * Claude Code's own list of its live sessions (`claude agents --json`, 2.1.332+), so `targets` can
 * tell an idle session from one that ended without a SessionEnd. Support is detected from
 * `claude --help` (once per run: `targets` calls this once). Null when claude is absent, too old,
 * slow or says something unreadable: the room then shows what the hooks recorded. Never called
 * from a hook (a spawn per hook would be too slow).
 */
export function claudeLiveSessions(
  env: Readonly<Record<string, string>>,
  command = 'claude',
): Set<string> | null {
  const agents = claudeAgents(env, command)
  return agents === null ? null : new Set(agents.map((agent) => agent.sessionId))
}

/** One entry of `claude agents --json` (2.1.332: pid, id, cwd, kind, sessionId, name, status, state). */
export interface ClaudeAgent {
  readonly sessionId: string
  /** The short id `claude stop`, `logs` and `attach` take (the first 8 characters of the session id). */
  readonly shortId: string | null
  /** `interactive` (a terminal) or `background` (`claude --bg`, run by Claude Code's own daemon). */
  readonly kind: string | null
  /** `idle` (at rest, waiting for a prompt) or busy. */
  readonly status: string | null
  /**
   * What the session is doing: `working`, or `blocked` when it waits at a question for a person
   * (an API key to approve, a permission to grant) that nobody sees in a background session.
   */
  readonly state: string | null
}

/** The sessions `claude agents --json` lists (the same rules as `claudeLiveSessions`), or null. */
export function claudeAgents(
  env: Readonly<Record<string, string>>,
  command = 'claude',
): ClaudeAgent[] | null {
  const help = spawnSync(command, ['--help'], spawnOptions(env))
  if (help.error !== undefined || help.status !== 0 || !/^\s+agents\b/m.test(help.stdout)) return null
  return listClaudeAgents(env, command)
}

/**
 * What `claude agents --json` says, for a caller that has read `--help` already (delivery's
 * VendorCli): one spawn instead of two. Null when it fails or says something unreadable.
 */
export function listClaudeAgents(
  env: Readonly<Record<string, string>>,
  command: string,
): ClaudeAgent[] | null {
  const listed = spawnSync(command, ['agents', '--json'], spawnOptions(env))
  if (listed.error !== undefined || listed.status !== 0) return null
  let value: unknown
  try {
    value = JSON.parse(listed.stdout)
  } catch {
    return null
  }
  const entries = Array.isArray(value)
    ? value
    : isRecord(value)
      ? ((Array.isArray(value.agents)
          ? value.agents
          : Array.isArray(value.sessions)
            ? value.sessions
            : null) ?? null)
      : null
  if (entries === null) return null
  const agents: ClaudeAgent[] = []
  const text = (entry: Record<string, unknown>, key: string): string | null =>
    typeof entry[key] === 'string' && entry[key] !== '' ? (entry[key] as string) : null
  for (const entry of entries) {
    if (!isRecord(entry)) continue
    const ids = new Set(
      ['sessionId', 'session_id', 'id'].map((key) => text(entry, key)).filter((id) => id !== null),
    )
    for (const sessionId of ids)
      agents.push({
        sessionId,
        shortId: text(entry, 'id'),
        kind: text(entry, 'kind'),
        status: text(entry, 'status'),
        state: text(entry, 'state'),
      })
  }
  return agents
}

function spawnOptions(env: Readonly<Record<string, string>>) {
  return {
    encoding: 'utf8' as const,
    timeout: timeoutMs,
    // The user's environment, not a bare PATH: without their CLAUDE_CONFIG_DIR it would list
    // another config's sessions, and without their settings it reached for the network.
    env,
    stdio: 'pipe' as const,
  }
}
