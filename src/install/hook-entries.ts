import { existsSync, realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { CommandHandler, HookGroup } from '../own-files/core/hook-config.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/**
 * Where installed hooks find sangam, and the handlers that call it.
 *
 * Hooks run compiled JavaScript from `dist/hooks/` with plain `node` (the hosts inherit the
 * user's PATH), never through the commander CLI: start-up time is the whole cost of a hook.
 * The path is this install's absolute path, except for a Claude Code project-level install when
 * sangam is a dependency of the project itself: then it is
 * `${CLAUDE_PROJECT_DIR}/node_modules/sangam/…`, which is the same on every teammate's machine and
 * can be committed.
 */
export interface HookEntries {
  readonly packageRoot: string
  /** `dist/hooks/agent-hook-main.cjs`: Claude Code and Codex hooks (bundled, scripts/build-bundles.mjs). */
  readonly agentHook: string
  /** `dist/hooks/pre-push-main.cjs`: the git pre-push gate (bundled likewise). */
  readonly prePush: string
  /** `dist/hooks/claude-wake-main.cjs`: Claude Code's wake waiter (D370), beside the agent hook. */
  readonly claudeWake: string
}

const agentHookFile = join('dist', 'hooks', 'agent-hook-main.cjs')
const prePushFile = join('dist', 'hooks', 'pre-push-main.cjs')
const claudeWakeName = 'claude-wake-main.cjs'

/**
 * How long Claude Code lets a wake waiter wait (seconds): a week. It ends the waiter at this
 * timeout (SIGTERM), after which the session waits for its next Stop to be woken in place again.
 * Well below 2^31 ms, past which a JavaScript timer fires at once.
 */
export const claudeWakeTimeoutSeconds = 7 * 24 * 60 * 60

/** Finds the hook entries beside the running CLI (`<root>/dist/cli/main.js`, or src/ under tsx). */
export function hookEntries(cliEntry: string): HookEntries {
  const packageRoot = resolve(dirname(cliEntry), '..', '..')
  const entries = {
    packageRoot,
    agentHook: join(packageRoot, agentHookFile),
    prePush: join(packageRoot, prePushFile),
    claudeWake: join(packageRoot, 'dist', 'hooks', claudeWakeName),
  }
  for (const file of [entries.agentHook, entries.prePush, entries.claudeWake]) {
    if (!existsSync(file)) {
      throw new SangamError(ErrorCode.NotFound, `${file} is missing; build sangam first (npm run build)`, {
        file,
      })
    }
  }
  return entries
}

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

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
