import type { Environment } from '../../config/environment.ts'
import type { Actor } from '../../identity/protocol/actor.ts'

/**
 * Who is acting, for leases. An agent session acts for its human (`human` comes from
 * project-context: SANGAM_USER, else git user.email / user.name):
 *
 * - `CLAUDE_CODE_SESSION_ID` (Claude Code gives it to Bash commands, hooks and stdio MCP servers)
 *   or `CODEX_THREAD_ID` (Codex gives it to the commands its agent runs) name the session exactly,
 *   so `sangam claim` run by an agent holds for that session, as its hooks will see it;
 * - a Codex MCP server gets neither, so the MCP client's name (`codex-mcp-client`) gives the
 *   vendor without the session: the lease is held by "this human's Codex", which covers that
 *   human's Codex sessions and excludes everyone else, including their Claude Code sessions;
 * - otherwise the human acts alone, and their lease covers their own sessions.
 *
 * When both session variables are set (one agent CLI started from inside the other), Claude Code's
 * wins: there is no telling which is innermost, and one answer beats a guess per call.
 */
export function resolveActor(env: Environment, human: string, mcpClientName?: string | undefined): Actor {
  if (env.claudeSessionId !== undefined) return { human, vendor: 'claude', sessionId: env.claudeSessionId }
  if (env.codexThreadId !== undefined) return { human, vendor: 'codex', sessionId: env.codexThreadId }
  const client = mcpClientName?.toLowerCase() ?? ''
  if (client.includes('codex')) return { human, vendor: 'codex', sessionId: null }
  if (client.includes('claude')) return { human, vendor: 'claude', sessionId: null }
  return { human, vendor: null, sessionId: null }
}
