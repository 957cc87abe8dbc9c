import { join } from 'node:path'
import { runGit } from '../git/git.ts'
import type { EntriesKind } from '../own-files/core/our-entries.ts'
import { namesMachinePath } from '../own-files/core/our-entries.ts'
import { splitOf } from '../own-files/core/own-file.ts'
import { readText } from '../own-files/services/config-file.ts'
import { excludeFromGit } from './git-exclude.ts'

/** How git sees a file of sangam's in a worktree once sangam has written it. */
export interface OwnFileInGit {
  /** Relative to the worktree's top level. */
  readonly path: string
  /**
   * excluded: untracked and naming this machine's path, so kept out of git in `info/exclude` (it
   * would mean nothing on a teammate's machine). tracked: git tracks it; its changes are the
   * user's to see and never hidden, so sangam's entries there must not be committed when they name
   * a machine path (`machinePath`). portable: untracked and naming no machine path: the team may
   * commit it.
   */
  readonly git: 'excluded' | 'tracked' | 'portable'
  /** Whether sangam's entries in it name this machine's paths. */
  readonly machinePath: boolean
  /** The `info/exclude` holding it, when excluded. */
  readonly excludedIn: string | null
}

/**
 * Keeps `path` of the worktree at `root` out of git on this machine when it is untracked and
 * sangam's entries in it name this machine's paths (D312); a tracked file is left visible. Null
 * when the file is absent or holds nothing of ours.
 */
export function keepOwnFileOutOfGit(input: {
  readonly root: string
  readonly commonDir: string
  readonly path: string
  readonly kind: EntriesKind
  readonly why: string
}): OwnFileInGit | null {
  const text = readText(join(input.root, input.path))
  const split = text === null ? null : splitOf(input.kind, text)
  if (split === null || split.ours.length === 0) return null
  const machinePath = namesMachinePath(split.ours)
  if (isTracked(input.root, input.path))
    return { path: input.path, git: 'tracked', machinePath, excludedIn: null }
  if (!machinePath) return { path: input.path, git: 'portable', machinePath, excludedIn: null }
  const excludedIn = excludeFromGit(input.commonDir, `/${input.path}`, input.why)
  return { path: input.path, git: 'excluded', machinePath, excludedIn }
}

/** Whether git tracks `path` in the worktree at `root`: in its index, or in HEAD. */
export function isTracked(root: string, path: string): boolean {
  return (
    runGit(['ls-files', '--error-unmatch', '--', path], root).code === 0 ||
    runGit(['cat-file', '-e', `HEAD:${path}`], root).code === 0
  )
}
