import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * Where installed hooks find sangam (each vendor's handlers that call it are its `install/*-hook-groups.ts`).
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
  /** `dist/hooks/agent-hook-main.cjs`: the agent hooks of every vendor (opencode's plugin runs it too) (bundled, scripts/build-bundles.mjs). */
  readonly agentHook: string
  /** `dist/hooks/pre-push-main.cjs`: the git pre-push gate (bundled likewise). */
  readonly prePush: string
  /** `dist/hooks/claude-wake-main.cjs`: Claude Code's wake waiter (D370), beside the agent hook. */
  readonly claudeWake: string
}

export const agentHookFile = join('dist', 'hooks', 'agent-hook-main.cjs')
const prePushFile = join('dist', 'hooks', 'pre-push-main.cjs')
export const claudeWakeName = 'claude-wake-main.cjs'

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

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
