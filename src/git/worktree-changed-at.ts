import { statSync } from 'node:fs'
import { join } from 'node:path'
import { findGitLayout } from './git-layout.ts'
import { worktreeChanges } from './worktree-changes.ts'

/** At most this many changed files are looked at (the newest of a huge change is not worth more). */
const maxFiles = 2000

/**
 * When the worktree at `root` last changed, from the file system: its uncommitted files but
 * sangam's own (one `git status`, which must not refresh the index: any `git status` rewrites it,
 * so its time says nothing), its git dir's `logs/HEAD` (a commit, a reset), and any `extra` paths
 * (a lane's task folder). Null when nothing there can be read.
 */
export function worktreeChangedAt(root: string, extra: readonly string[] = []): number | null {
  const paths = [...extra]
  const layout = findGitLayout(root)
  if (layout !== null) paths.push(join(layout.gitDir, 'logs', 'HEAD'))
  const changes = worktreeChanges(root, { optionalLocks: false })
  for (const path of changes?.uncommitted.slice(0, maxFiles) ?? []) paths.push(join(root, path))
  let newest: number | null = null
  for (const path of paths) {
    const mtime = mtimeOf(path)
    if (mtime !== null && (newest === null || mtime > newest)) newest = mtime
  }
  return newest
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs
  } catch {
    return null
  }
}
