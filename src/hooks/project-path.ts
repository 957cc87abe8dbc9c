import { realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

/**
 * The repository-relative paths (leases are written against these) that a write to `raw` lands
 * on. `raw` is what the tool named: absolute (Claude) or relative to the session's cwd (Codex).
 *
 * - `..` and `.` are resolved first, so `src/../src/a.ts` is `src/a.ts`.
 * - Symlinks are followed through the deepest part of the path that exists, so writing a link
 *   that points at a leased file is a write to the leased file; the link's own path is kept too,
 *   and a lease on either one applies.
 * - The real path carries the on-disk spelling of every existing component, so on a
 *   case-insensitive file system `SRC/A.ts` becomes `src/a.ts`; on a case-sensitive one they stay
 *   two different files, as they are.
 * - Linked worktrees often live inside the main one (`.claude/worktrees/x`), so the deepest
 *   worktree containing the path decides what it is relative to.
 *
 * Returns [] when the path lies outside every worktree: no lease governs it.
 */
export function projectPaths(raw: string, cwd: string, worktrees: readonly string[]): string[] {
  const lexical = resolve(cwd, raw)
  const paths: string[] = []
  for (const absolute of [realPathOfExistingPrefix(lexical), lexical]) {
    const relative = relativeToDeepestWorktree(absolute, worktrees)
    if (relative !== null && !paths.includes(relative)) paths.push(relative)
  }
  return paths
}

function relativeToDeepestWorktree(absolute: string, worktrees: readonly string[]): string | null {
  let best: string | null = null
  for (const root of worktrees) {
    if (!absolute.startsWith(`${root}/`)) continue
    if (best === null || root.length > best.length) best = root
  }
  return best === null ? null : absolute.slice(best.length + 1)
}

/** The real path of the longest existing prefix of `path`, with the missing rest appended as given. */
function realPathOfExistingPrefix(path: string): string {
  const missing: string[] = []
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(realpathSync.native(current), ...missing)
    } catch {
      if (dirname(current) === current) return path
      missing.unshift(basename(current))
    }
  }
}
