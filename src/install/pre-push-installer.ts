import { existsSync, lstatSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { gitOutput } from '../git/git.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { writeTextAtomically } from './config-file.ts'
import { shellQuote } from './hook-entries.ts'

/**
 * Installs the lease gate as git's `pre-push` hook. The hooks directory is whatever git uses for
 * this checkout (`git rev-parse --git-path hooks` honours `core.hooksPath`, and is shared by every
 * worktree). A pre-push hook that is not ours is kept: it is renamed `pre-push.sangam-chained` and
 * our gate runs it after deciding, with the same arguments and the same stdin; uninstalling puts it
 * back.
 */
export interface PrePushChange {
  readonly file: string
  readonly change: 'added' | 'updated' | 'unchanged' | 'removed' | 'absent'
  /** The user's own hook that now runs after ours (or was put back), if any. */
  readonly chained: string | null
}

const marker = '# sangam pre-push gate'
export const chainedName = 'pre-push.sangam-chained'

export function gitHooksDir(worktreeRoot: string): string {
  const path = gitOutput(['rev-parse', '--git-path', 'hooks'], worktreeRoot)
  return isAbsolute(path) ? path : resolve(worktreeRoot, path)
}

export function installPrePush(hooksDir: string, entry: string): PrePushChange {
  const file = join(hooksDir, 'pre-push')
  const chained = join(hooksDir, chainedName)
  const script = prePushScript(entry)
  const existing = readIfPresent(file)
  if (existing !== null && isOurs(existing)) {
    if (existing === script) return { file, change: 'unchanged', chained: present(chained) }
    writeTextAtomically(file, script, 0o755)
    return { file, change: 'updated', chained: present(chained) }
  }
  if (existing !== null || isDanglingLink(file)) {
    if (existsSync(chained) || isDanglingLink(chained)) {
      throw new SangamError(
        ErrorCode.InvalidInput,
        `${file} and ${chained} both exist and neither is sangam's; move one of them away and run install-hooks again`,
        { file },
      )
    }
    renameSync(file, chained)
  }
  writeTextAtomically(file, script, 0o755)
  return { file, change: 'added', chained: present(chained) }
}

export function uninstallPrePush(hooksDir: string): PrePushChange {
  const file = join(hooksDir, 'pre-push')
  const chained = join(hooksDir, chainedName)
  const existing = readIfPresent(file)
  if (existing === null || !isOurs(existing)) return { file, change: 'absent', chained: null }
  rmSync(file)
  if (!existsSync(chained) && !isDanglingLink(chained)) return { file, change: 'removed', chained: null }
  renameSync(chained, file)
  return { file, change: 'removed', chained: file }
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
${marker}: refuses a push whose commits touch files leased by another actor.
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

function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

function isDanglingLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink() && !existsSync(file)
  } catch {
    return false
  }
}

function present(file: string): string | null {
  return existsSync(file) ? file : null
}
