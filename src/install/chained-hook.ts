import { existsSync, lstatSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeTextAtomically } from '../own-files/services/config-file.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/**
 * One git hook of sangam's in a hooks directory, chained with the user's own: a hook that is not
 * ours is kept, renamed `<hook>.sangam-chained`, and our script runs it after deciding (with the
 * same arguments and stdin); uninstalling puts it back. Installing again changes nothing.
 */
export interface HookScriptChange {
  readonly file: string
  readonly change: 'added' | 'updated' | 'unchanged' | 'removed' | 'absent'
  /** The user's own hook that now runs after ours (or was put back), if any. */
  readonly chained: string | null
}

export function chainedHookName(hook: string): string {
  return `${hook}.sangam-chained`
}

export function installChainedHook(
  hooksDir: string,
  hook: string,
  script: string,
  isOurs: (text: string) => boolean,
): HookScriptChange {
  const file = join(hooksDir, hook)
  const chained = join(hooksDir, chainedHookName(hook))
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

export function uninstallChainedHook(
  hooksDir: string,
  hook: string,
  isOurs: (text: string) => boolean,
): HookScriptChange {
  const file = join(hooksDir, hook)
  const chained = join(hooksDir, chainedHookName(hook))
  const existing = readIfPresent(file)
  if (existing === null || !isOurs(existing)) return { file, change: 'absent', chained: null }
  rmSync(file)
  if (!existsSync(chained) && !isDanglingLink(chained)) return { file, change: 'removed', chained: null }
  renameSync(chained, file)
  return { file, change: 'removed', chained: file }
}

export function readIfPresent(file: string): string | null {
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
