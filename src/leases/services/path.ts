import { type Dirent, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { isLiteralPattern, literalPath, normalisePattern } from '../core/pattern.ts'

/**
 * Where a file or a pattern lands in the project. Hooks hand us absolute paths (through symlinks,
 * with `..`); people type paths relative to where they stand. Leases speak repository-relative
 * POSIX paths, the same in every worktree of the project.
 */

/**
 * The repository-relative spellings of the file `raw` names (relative to `cwd` unless absolute):
 * the real path first (every symlink resolved, a dangling one too: a link to a leased file is the
 * leased file, whether or not that file exists yet), then the lexical path when it differs (a
 * lease on the link's own path applies too). The deepest worktree containing the path decides, since linked worktrees
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

/**
 * The real path of `path` (absolute, lexically clean): every symlink on the way resolved, also one
 * whose target does not exist (writing through a dangling link creates its target), and from the
 * first missing component on, the rest appended as given. Past 40 links (a loop), the path as
 * reached so far. Only a path that does not exist walks: realpath answers the rest.
 */
function realPathOfExistingPrefix(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    // Missing, dangling, or a loop: resolved one component at a time below.
  }
  const rest = path.split('/').filter((part) => part !== '')
  let resolved = '/'
  let links = 0
  for (let part = rest.shift(); part !== undefined; part = rest.shift()) {
    const next = join(resolved, part)
    const stat = lstatOrUndefined(next)
    if (stat === undefined || !stat.isSymbolicLink() || ++links > maxLinks) {
      if (stat === undefined || stat.isSymbolicLink()) return join(next, ...rest)
      resolved = next
      continue
    }
    const target = readlinkSync(next)
    if (target.startsWith('/')) resolved = '/'
    rest.unshift(...target.split('/').filter((segment) => segment !== ''))
  }
  return resolved
}

/** `lstat`, or undefined for whatever cannot be looked at (missing, below a file, unreadable). */
function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}

/** Linux's own limit on links followed in one lookup (MAXSYMLINKS). */
const maxLinks = 40

/**
 * The other repository-relative names of the file `raw` names, where a lease pattern names them: a
 * hard link is the file it links to, so a lease on either name holds both. Only for an existing
 * file with more than one link (rare in a checkout: git never writes them) and only among leased
 * names: each literal pattern is one `stat`; a glob's files are looked for below its fixed
 * leading folders, at most `maxWalked` entries per glob, in the file's own worktree.
 */
export function hardLinkNames(
  raw: string,
  cwd: string,
  worktrees: readonly string[],
  patterns: readonly string[],
): string[] {
  if (patterns.length === 0) return []
  const absolute = realPathOfExistingPrefix(resolve(cwd, raw))
  const file = statOrUndefined(absolute)
  if (file === undefined || !file.isFile() || file.nlink < 2) return []
  const root = deepestWorktree(absolute, worktrees)
  if (root === null) return []
  const own = absolute.slice(root.length + 1)
  const same = (candidate: string): boolean => {
    const stat = statOrUndefined(join(root, candidate))
    return stat !== undefined && stat.ino === file.ino && stat.dev === file.dev
  }
  const names: string[] = []
  const add = (name: string): void => {
    if (name !== own && !names.includes(name)) names.push(name)
  }
  for (const pattern of patterns) {
    const literal = literalPath(pattern)
    if (literal !== null) {
      if (same(literal)) add(literal)
      continue
    }
    for (const candidate of filesBelow(root, fixedFolders(pattern))) if (same(candidate)) add(candidate)
  }
  return names
}

const maxWalked = 10_000

function statOrUndefined(path: string): ReturnType<typeof statSync> {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/** The leading folders of a glob that hold no glob syntax (`src/auth/**` → `src/auth`). */
function fixedFolders(pattern: string): string {
  const segments = pattern.split('/')
  const fixed: string[] = []
  for (const segment of segments.slice(0, -1)) {
    if (!isLiteralPattern(segment)) break
    fixed.push(segment)
  }
  return fixed.join('/')
}

/** Regular files below `root/folder` (repository-relative), `.git` skipped, bounded. */
function filesBelow(root: string, folder: string): string[] {
  const files: string[] = []
  const pending = [folder]
  let walked = 0
  for (let dir = pending.pop(); dir !== undefined && walked < maxWalked; dir = pending.pop()) {
    let entries: Dirent[]
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      walked++
      const name = dir === '' ? entry.name : `${dir}/${entry.name}`
      if (entry.isDirectory() && entry.name !== '.git') pending.push(name)
      else if (entry.isFile()) files.push(name)
    }
  }
  return files
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
