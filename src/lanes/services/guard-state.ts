import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitHooksDir } from '../../git/hooks-dir.ts'
import { readMainGuard } from './main-guard-file.ts'

/**
 * The six git hooks that keep `main` moved by `sangam sync` alone (install/main-guard-installer.ts
 * writes them). `pre-push` is sangam's one pre-push gate, which also checks leases.
 */
export const guardHooks = [
  'pre-commit',
  'pre-merge-commit',
  'pre-rebase',
  'pre-applypatch',
  'pre-push',
  'reference-transaction',
] as const
export type GuardHook = (typeof guardHooks)[number]

/** The first-lines marker of a guard hook script. */
export const mainGuardMarker = '# sangam main guard'
/** The first-lines marker of the pre-push gate (install/pre-push-installer.ts). */
export const prePushMarker = '# sangam pre-push gate'

/** `status --json`'s `guard`: which hooks guard `main` here, and which do not. */
export interface GuardState {
  /** The branch the guard protects; null when the repository is not armed. */
  readonly mainBranch: string | null
  readonly installed: readonly GuardHook[]
  readonly missing: readonly GuardHook[]
}

/**
 * Which guard hooks are in place for the repository of `root`. A hook counts as installed when the
 * hooks directory git runs (`core.hooksPath` honoured) holds sangam's script for it and the
 * repository is armed (`main-guard-file.ts`); a user's own hook where ours should be counts as
 * missing. Reads files only (one `git rev-parse` for the hooks directory).
 */
export function readGuardState(root: string, commonDir: string): GuardState {
  const guard = readMainGuard(commonDir)
  if (guard === null) return { mainBranch: null, installed: [], missing: [...guardHooks] }
  let dir: string
  try {
    dir = gitHooksDir(root)
  } catch {
    return { mainBranch: guard.mainBranch, installed: [], missing: [...guardHooks] }
  }
  const installed = guardHooks.filter((hook) => isOurHook(join(dir, hook), hook))
  return {
    mainBranch: guard.mainBranch,
    installed,
    missing: guardHooks.filter((hook) => !installed.includes(hook)),
  }
}

/** Whether `file` holds sangam's script for `hook`. */
export function isOurHook(file: string, hook: GuardHook): boolean {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return false
  }
  const marker = hook === 'pre-push' ? prePushMarker : mainGuardMarker
  return text.split('\n', 3).some((line) => line.startsWith(marker))
}
