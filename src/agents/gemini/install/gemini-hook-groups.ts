import type { CommandHandler, HookGroup } from '../../../own-files/core/hook-config.ts'
import { geminiEditToolMatcher } from '../core/gemini-hook-events.ts'

/**
 * sangam's hooks in Gemini CLI's `settings.json` (`hooks.<Event>: [{matcher, hooks: [handler]}]`,
 * the shape Claude Code's settings use, so the same merge keeps the user's own hooks). Gemini CLI
 * runs `command` through a shell, so the path is quoted for sh; its `timeout` is in milliseconds.
 * The handler names `gemini`, so the agent hook translates events and answers
 * (gemini-hook-events.ts).
 */
export function geminiGroups(entry: string): Record<string, HookGroup> {
  const handler = (timeoutMs: number): CommandHandler => ({
    type: 'command',
    command: `node ${shellQuote(entry)} gemini`,
    timeout: timeoutMs,
  })
  return {
    SessionStart: { matcher: '*', hooks: [handler(10_000)] },
    BeforeTool: { matcher: geminiEditToolMatcher, hooks: [handler(10_000)] },
    // Presence in the room and the room's messages: a prompt makes the session online, the end
    // of the agent's answer idle (or hands it what it was tagged with, as a retry prompt).
    BeforeAgent: { matcher: '*', hooks: [handler(10_000)] },
    AfterAgent: { matcher: '*', hooks: [handler(10_000)] },
    SessionEnd: { matcher: '*', hooks: [handler(5_000)] },
  }
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
