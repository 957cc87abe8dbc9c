/** A live session that can take a turn in place (Codex over its app-server, Claude Code through its wake waiter). */
export interface WakeInPlace {
  /** The session's live endpoint, or null when it has none (not started through `sangam codex`, no waiter, or gone). */
  endpointOf(sessionId: string): string | null
  /** Start a turn in the live session; throws SangamError when the endpoint is gone or refuses. */
  wake(endpoint: string, sessionId: string, prompt: string): Promise<void>
  /** Why the session has no endpoint, when the channel can tell (for `sessions`); null otherwise. */
  unavailable?(sessionId: string): string | null
}
