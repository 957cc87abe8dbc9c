/**
 * Recognises sangam's agent-hook handlers, and Claude Code's wake waiter beside them, in a Claude
 * Code or Codex hook file, whatever path or host they were written for (an older install, another
 * machine's path, the project-relative `${CLAUDE_PROJECT_DIR}/node_modules/sangam/…` form).
 */
export function isOurAgentHandler(handler: Readonly<Record<string, unknown>>): boolean {
  const args = Array.isArray(handler.args) ? handler.args.filter((arg) => typeof arg === 'string') : []
  const words = [typeof handler.command === 'string' ? handler.command : '', ...args].join(' ')
  return /(?:^|[/\\'"\s])dist[/\\]hooks[/\\](?:agent-hook-main|claude-wake-main)\.c?js\b/.test(words)
}
