import { statSync } from 'node:fs'
import { join } from 'node:path'
import { findGitLayout } from './git-layout.ts'
import { runGit } from './git.ts'

/** At most this many changed files are looked at (the newest of a huge change is not worth more). */
const maxFiles = 2000

/**
 * When the worktree at `root` last changed, from the file system: its uncommitted files (one
 * `git status`, which must not refresh the index: any `git status` rewrites it, so its time says
 * nothing), its git dir's `logs/HEAD` (a commit, a reset), and any `extra` paths (a lane's task
 * folder). Null when nothing there can be read.
 */
export function worktreeChangedAt(root: string, extra: readonly string[] = []): number | null {
  const paths = [...extra]
  const layout = findGitLayout(root)
  if (layout !== null) paths.push(join(layout.gitDir, 'logs', 'HEAD'))
  const status = runGit(['--no-optional-locks', 'status', '--porcelain', '-z', '--untracked-files=all'], root)
  if (status.code === 0) {
    const fields = status.stdout.split('\0')
    for (let i = 0; i < fields.length && paths.length < maxFiles; i++) {
      const entry = fields[i] ?? ''
      if (entry.length < 4) continue
      paths.push(join(root, entry.slice(3)))
      // A rename or copy is followed by the path it came from.
      if (entry[0] === 'R' || entry[0] === 'C') i++
    }
  }
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
