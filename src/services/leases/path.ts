import { realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { isLiteralPattern, normalisePattern } from '../../core/leases/pattern.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * Where a file or a pattern lands in the project. Hooks hand us absolute paths (through symlinks,
 * with `..`); people type paths relative to where they stand. Leases speak repository-relative
 * POSIX paths, the same in every worktree of the project.
 */

/**
 * The repository-relative spellings of the file `raw` names (relative to `cwd` unless absolute):
 * the real path first (symlinks resolved through the deepest existing ancestor, so a link to a
 * leased file is the leased file), then the lexical path when it differs (a lease on the link's
 * own path applies too). The deepest worktree containing the path decides, since linked worktrees
 * often live inside the main one. Empty when the path lies outside every worktree: such a file is
 * never leased and never denied.
 */
export function repositoryPaths(raw: string, cwd: string, worktrees: readonly string[]): string[] {
  const lexical = resolve(cwd, raw)
  const paths: string[] = []
  for (const absolute of [realPathOfExistingPrefix(lexical), lexical]) {
    const inside = relativeToDeepestWorktree(absolute, worktrees)
    if (inside !== null && inside !== '' && !paths.includes(inside)) paths.push(inside)
  }
  return paths
}

/**
 * A pattern as a person typed it, made repository-relative: relative to `cwd` like any path on the
 * command line (`auth/**` typed in `src/` is `src/auth/**`; agent tools pass the worktree root as
 * `cwd`, so theirs are repository-relative), or absolute inside a worktree; then
 * normalised. A plain path naming an existing directory means everything below it (`src/auth` →
 * `src/auth/**`). Throws INVALID_INPUT for an empty pattern, one outside the project, or one the
 * pattern rules refuse (`normalisePattern`).
 */
export function resolvePatternArgument(raw: string, cwd: string, worktrees: readonly string[]): string {
  const text = raw.trim()
  // Refused by the pattern rules before it is resolved: resolved, it would be the cwd itself.
  if (text === '') normalisePattern(text)
  const absolute = realPathOfExistingPrefix(resolve(cwd, text))
  const root = deepestWorktree(absolute, worktrees)
  if (root === null) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `"${raw}" is outside this project; leases cover project files only`,
    )
  }
  const inside = absolute.slice(root.length + 1)
  const pattern = normalisePattern(text.endsWith('/') ? `${inside}/` : inside || '.')
  return isLiteralPattern(pattern) && isDirectory(join(root, pattern)) ? `${pattern}/**` : pattern
}

function deepestWorktree(absolute: string, worktrees: readonly string[]): string | null {
  let best: string | null = null
  for (const root of worktrees) {
    if (absolute !== root && !absolute.startsWith(`${root}/`)) continue
    if (best === null || root.length > best.length) best = root
  }
  return best
}

function relativeToDeepestWorktree(absolute: string, worktrees: readonly string[]): string | null {
  const root = deepestWorktree(absolute, worktrees)
  return root === null ? null : absolute.slice(root.length + 1)
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

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
