import { spawnSync } from 'node:child_process'
import type { ClaudeAgent } from './claude-live-sessions.ts'

/** `claude stop` answers at once (it asks Claude Code's daemon); past this it counts as failed. */
const stopTimeoutMs = 10_000

/**
 * A background session sangam itself started (`claude --bg --resume`) stays open in Claude Code's
 * daemon after its turn, idle, for about an hour (`claude daemon --help`), and `claude agents`
 * lists it. No terminal holds it, so a later tag must not wait for a prompt nobody types: the
 * session is stopped (`claude stop <id>`: its conversation is kept) and continued again (D177).
 * The short id when `agents` lists the session only as an idle background one; null otherwise
 * (an interactive terminal, a turn running, one waiting at a question, or not listed at all).
 */
export function restingBackgroundId(agents: readonly ClaudeAgent[] | null, sessionId: string): string | null {
  if (agents === null) return null
  const entries = agents.filter((agent) => agent.sessionId === sessionId)
  const [only, ...more] = entries
  if (only === undefined || more.length > 0) return null
  if (only.kind !== 'background' || only.status !== 'idle' || only.shortId === null) return null
  if (only.state === 'blocked') return null
  return only.shortId
}

/**
 * The short id (else the session id) of a session Claude Code lists as `blocked`: its turn waits
 * at a question for a person, say an API key never approved in the TUI or a permission (2.1.332
 * lists a background session so with `status: idle`). Stopping and continuing it would only ask
 * again, and the question is nobody's to answer but a person's, so its tags wait for the Stop that
 * ends that turn (D254). Null when it is not listed so, or Claude cannot say.
 */
export function questionWaitingId(agents: readonly ClaudeAgent[] | null, sessionId: string): string | null {
  const waiting = agents?.find((agent) => agent.sessionId === sessionId && agent.state === 'blocked')
  return waiting === undefined ? null : (waiting.shortId ?? waiting.sessionId)
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
