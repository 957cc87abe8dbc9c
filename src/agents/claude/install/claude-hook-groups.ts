import { existsSync, realpathSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { CommandHandler, HookGroup } from '../../../own-files/core/hook-config.ts'
import { agentHookFile, claudeWakeName, type HookEntries } from '../../../own-files/services/hook-entries.ts'

/**
 * How long Claude Code lets a wake waiter wait (seconds): a week. It ends the waiter at this
 * timeout (SIGTERM), after which the session waits for its next Stop to be woken in place again.
 * Well below 2^31 ms, past which a JavaScript timer fires at once.
 */
export const claudeWakeTimeoutSeconds = 7 * 24 * 60 * 60

/** The agent-hook path a Claude Code handler should name for a project-level install in `root`. */
export function claudeProjectEntry(entries: HookEntries, root: string): string {
  const dependency = join(root, 'node_modules', 'sangam')
  if (existsSync(dependency) && realpathSync(dependency) === realpathSync(entries.packageRoot)) {
    return `\${CLAUDE_PROJECT_DIR}/node_modules/sangam/${agentHookFile}`
  }
  return entries.agentHook
}

/**
 * Claude Code runs the exec form (command + args, no shell), which also expands `${…}` in args.
 * The wake waiter is named beside `entry` (the same directory, absolute or `${CLAUDE_PROJECT_DIR}`).
 */
export function claudeGroups(entry: string): Record<string, HookGroup> {
  const handler = (timeout: number): CommandHandler => ({
    type: 'command',
    command: 'node',
    args: [entry, 'claude'],
    timeout,
  })
  // Exec form too: its parent is then Claude Code itself, which the waiter watches (D372).
  const wakeWaiter: CommandHandler = {
    type: 'command',
    command: 'node',
    args: [`${entry.slice(0, entry.length - basename(entry).length)}${claudeWakeName}`],
    timeout: claudeWakeTimeoutSeconds,
    asyncRewake: true,
  }
  return {
    SessionStart: { hooks: [handler(10)] },
    PreToolUse: { matcher: 'Edit|Write|MultiEdit|NotebookEdit', hooks: [handler(10)] },
    // Presence in the room: a prompt makes the session online, the end of a turn idle; and at
    // the end of a turn the wake waiter starts, in the background, for a tag while it is idle.
    UserPromptSubmit: { hooks: [handler(10)] },
    Stop: { hooks: [handler(10), wakeWaiter] },
    // Claude gives SessionEnd hooks 1.5 s unless a timeout says otherwise.
    SessionEnd: { hooks: [handler(5)] },
  }
}
