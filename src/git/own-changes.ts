import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isSangamsOwnChange, mayHoldOurs, ownFileKind, ownFolder } from '../own-files/core/own-file.ts'
import { runGit, runGitAsync } from './git.ts'

/** A path git reports changed in a worktree; `tracked`: git knows it (HEAD's text is then asked). */
export interface ChangedPath {
  readonly path: string
  readonly tracked: boolean
}

/** Whether `path` names one of sangam's own files at all (by name alone, no reading). */
export function isOwnFilePath(path: string): boolean {
  return path.startsWith(ownFolder) || ownFileKind(path) !== null
}

/**
 * `git add` arguments taking everything but `paths` (each literal, from the top level): how
 * sangam's own changes stay out of a commit it makes of a worktree's work.
 */
export function addAllBut(paths: readonly string[]): string[] {
  return paths.length === 0 ? ['-A'] : ['-A', '--', '.', ...paths.map((path) => `:(exclude,literal)${path}`)]
}

/**
 * Of `changed` in `worktree`, the paths whose change is sangam's alone (own-files/core/own-file.ts),
 * so no view counts them as anyone's work. Reads only files named like sangam's, and asks git for
 * HEAD's text only of a tracked one that holds an entry of ours: nothing runs for a worktree
 * without such a change.
 */
export function sangamsOwnChanges(worktree: string, changed: readonly ChangedPath[]): Set<string> {
  const own = new Set<string>()
  for (const { path, tracked } of changed) {
    const text = candidateText(worktree, path)
    if (text === undefined) continue
    const base = tracked ? headText(runGit(['cat-file', 'blob', `HEAD:${path}`], worktree)) : null
    if (isSangamsOwnChange(path, text, base)) own.add(path)
  }
  return own
}

/** `sangamsOwnChanges` for paths changed since commit `head`, without blocking (the daemon's rounds). */
export async function sangamsOwnChangesSince(
  worktree: string,
  head: string,
  paths: readonly string[],
): Promise<Set<string>> {
  const own = new Set<string>()
  for (const path of paths) {
    const text = candidateText(worktree, path)
    if (text === undefined) continue
    const base = headText(await runGitAsync(['cat-file', 'blob', `${head}:${path}`], worktree))
    if (isSangamsOwnChange(path, text, base)) own.add(path)
  }
  return own
}

/**
 * The worktree's text of a path that may be sangam's (null: the file is gone or is `.sangam/`'s,
 * which needs no reading); undefined when it is certainly not sangam's.
 */
function candidateText(worktree: string, path: string): string | null | undefined {
  if (path.startsWith(ownFolder)) return null
  const kind = ownFileKind(path)
  if (kind === null) return undefined
  let text: string
  try {
    text = readFileSync(join(worktree, path), 'utf8')
  } catch {
    return undefined
  }
  return mayHoldOurs(kind, text) ? text : undefined
}

function headText(result: { code: number; stdout: string }): string | null {
  return result.code === 0 ? result.stdout : null
}
