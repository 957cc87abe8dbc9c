import { spawnSync } from 'node:child_process'
import type { ClaudeAgent } from '../room/claude-live-sessions.ts'

/** `claude stop` answers at once (it asks Claude Code's daemon); past this it counts as failed. */
const stopTimeoutMs = 10_000

/**
 * A background session sangam itself started (`claude --bg --resume`) stays open in Claude Code's
 * daemon after its turn, idle, for about an hour (`claude daemon --help`), and `claude agents`
 * lists it. No terminal holds it, so a later tag must not wait for a prompt nobody types: the
 * session is stopped (`claude stop <id>`: its conversation is kept) and continued again (D177).
 * The short id when `agents` lists the session only as an idle background one; null otherwise
 * (an interactive terminal, a turn running, or not listed at all).
 */
export function restingBackgroundId(agents: readonly ClaudeAgent[] | null, sessionId: string): string | null {
  if (agents === null) return null
  const entries = agents.filter((agent) => agent.sessionId === sessionId)
  const [only, ...more] = entries
  if (only === undefined || more.length > 0) return null
  if (only.kind !== 'background' || only.status !== 'idle' || only.shortId === null) return null
  return only.shortId
}

/** Stops a background session through `claude stop <id>`; the problem, or null once it has stopped. */
export function stopClaudeBackground(
  executable: string,
  shortId: string,
  env: Readonly<Record<string, string>>,
  cwd: string,
): string | null {
  const run = spawnSync(executable, ['stop', shortId], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: stopTimeoutMs,
    stdio: 'pipe',
  })
  if (run.error !== undefined) return `claude stop ${shortId} could not run: ${run.error.message}`
  if (run.status !== 0)
    return `claude stop ${shortId} exited with ${run.status}: ${`${run.stderr}${run.stdout}`.trim().split('\n')[0] ?? ''}`
  return null
}
