import type { CommandHandler, HookGroup } from '../../../own-files/core/hook-config.ts'
import { shellQuote } from '../../../own-files/services/hook-entries.ts'

/** Codex runs `command` through a shell, so the path is quoted for sh. */
export function codexGroups(entry: string): Record<string, HookGroup> {
  const handler = (timeout: number): CommandHandler => ({
    type: 'command',
    command: `node ${shellQuote(entry)} codex`,
    timeout,
  })
  return {
    SessionStart: { hooks: [handler(10)] },
    PreToolUse: { matcher: '^apply_patch$', hooks: [handler(10)] },
    // Presence in the room (Codex ignores matchers on these two events).
    UserPromptSubmit: { hooks: [handler(10)] },
    Stop: { hooks: [handler(10)] },
    // Codex caps SessionEnd hooks at 3 s.
    SessionEnd: { hooks: [handler(3)] },
  }
}
