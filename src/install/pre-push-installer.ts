import { prePushMarker } from '../lanes/services/guard-state.ts'
import { shellQuote } from '../own-files/services/hook-entries.ts'
import {
  chainedHookName,
  type HookScriptChange,
  installChainedHook,
  readIfPresent,
  uninstallChainedHook,
} from './chained-hook.ts'

/**
 * Installs the lease gate as git's `pre-push` hook. The hooks directory is whatever git uses for
 * this checkout (`git rev-parse --git-path hooks` honours `core.hooksPath`, and is shared by every
 * worktree). A pre-push hook that is not ours is kept: it is renamed `pre-push.sangam-chained` and
 * our gate runs it after deciding, with the same arguments and the same stdin; uninstalling puts it
 * back.
 */
export type PrePushChange = HookScriptChange

const marker = prePushMarker
export const chainedName = chainedHookName('pre-push')

export function installPrePush(hooksDir: string, entry: string): PrePushChange {
  return installChainedHook(hooksDir, 'pre-push', prePushScript(entry), isOurs)
}

export function uninstallPrePush(hooksDir: string): PrePushChange {
  return uninstallChainedHook(hooksDir, 'pre-push', isOurs)
}

/** Whether `file` holds our gate (for doctor). */
export function isOurPrePush(file: string): boolean {
  const text = readIfPresent(file)
  return text !== null && isOurs(text)
}

/**
 * The hook git runs. It hands over to node with `exec`, so our gate reads the very stdin git
 * wrote. If sangam was removed without uninstalling, the push goes on (with a warning) and the
 * chained hook still runs: a missing gate must never block work.
 */
function prePushScript(entry: string): string {
  return `#!/bin/sh
${marker}: refuses a push whose commits touch files leased by another actor, and where the
# main guard is armed (.git/sangam/main-guard) any push of main but sangam's own.
# Installed by \`sangam install-hooks\`; \`sangam install-hooks --uninstall\` removes it and puts back
# the hook it chains (${chainedName}), which runs after the gate with the same arguments and stdin.
entry=${shellQuote(entry)}
chained="$(dirname "$0")/${chainedName}"
if [ -f "$entry" ] && command -v node >/dev/null 2>&1; then
  exec node "$entry" "$chained" "$@"
fi
echo "sangam: the pre-push gate ($entry) is missing; this push was not checked against leases" >&2
if [ -x "$chained" ]; then
  exec "$chained" "$@"
fi
exit 0
`
}

function isOurs(text: string): boolean {
  return text.split('\n', 3).some((line) => line.startsWith(marker))
}
