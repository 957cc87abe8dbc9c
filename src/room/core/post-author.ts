import type { AuthorKind } from '../protocol/message.ts'

/**
 * The channels a post comes through: the CLI (`post`, `send`, `handoff`, `thread-open`…), `chat`,
 * the dashboard, the MCP server, and sangam's own daemon.
 */
export type PostChannel = 'cli' | 'chat' | 'dashboard' | 'mcp' | 'sangam'

/** What the posting process knows about who is typing. */
export interface PostSource {
  readonly channel: PostChannel
  /** Its standard input is a terminal (the CLI and `chat`). */
  readonly terminal: boolean
  /** The agent-marking variables it carries (`config/environment.ts` `agentMarkersIn`). */
  readonly agentMarkers: readonly string[]
}

/**
 * Who wrote a post, as its channel can tell (D270). Delivery's loop guard resets only on `human`,
 * so a doubt never goes that way: an agent that looks like a person restarts a loop of paid turns,
 * a person that looks like an agent only spends the budget, which their next tag from a terminal,
 * `chat` or the dashboard resets.
 *
 * - The MCP server is an agent's channel, whatever its client tells (Codex gives its servers no
 *   session id, openai/codex#19937).
 * - The dashboard is a person at a browser: its server's environment is not the typist's.
 * - The CLI and `chat` are an agent's when the process carries an agent's variables, a person's
 *   when their standard input is a terminal, else nobody can tell (a script, a pipe): `unknown`,
 *   which counts against the budget.
 */
export function postAuthor(source: PostSource): AuthorKind {
  switch (source.channel) {
    case 'sangam':
      return 'sangam'
    case 'mcp':
      return 'agent'
    case 'dashboard':
      return 'human'
    case 'cli':
    case 'chat':
      if (source.agentMarkers.length > 0) return 'agent'
      return source.terminal ? 'human' : 'unknown'
  }
}
