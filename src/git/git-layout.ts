import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'

/**
 * Where a checkout's git directories are, found by reading `.git` entries from the file system.
 * Hooks use this instead of `git rev-parse`: spawning git costs several milliseconds per call and
 * a hook runs on every edit. Anything unusual (GIT_DIR, bare repositories, `core.worktree`) yields
 * null, and the caller falls back to asking git itself.
 */
export interface GitLayout {
  /** Top level of the worktree containing the start directory (real path). */
  readonly worktreeRoot: string
  /** This worktree's git dir: `.git`, or `<common>/worktrees/<name>` for a linked worktree. */
  readonly gitDir: string
  /** The git dir shared by every worktree (real path). */
  readonly commonDir: string
}

export function findGitLayout(start: string): GitLayout | null {
  let dir = realOrNull(start)
  while (dir !== null) {
    const layout = layoutAt(dir)
    if (layout !== undefined) return layout
    const parent = dirname(dir)
    dir = parent === dir ? null : parent
  }
  return null
}

/**
 * Every worktree of the repository, the main one first and the linked ones by path (the order of
 * `git worktree list`), read from the `gitdir` file of each entry under `<common>/worktrees/`.
 * This is the one worktree listing: hooks call it on their layout, and `openRepository` on what
 * git told it, so both see the same list without spawning `git worktree list`. A linked worktree
 * whose directory is gone is still listed: its path may come back. A bare repository has no main
 * worktree, so only its linked ones are listed.
 */
export function worktreeRoots(layout: Pick<GitLayout, 'worktreeRoot' | 'commonDir'>): string[] {
  const main = basename(layout.commonDir) === '.git' ? [dirname(layout.commonDir)] : []
  let names: string[] = []
  try {
    names = readdirSync(join(layout.commonDir, 'worktrees'))
  } catch {
    names = []
  }
  const linked: string[] = []
  for (const name of names) {
    const pointer = readTrimmed(join(layout.commonDir, 'worktrees', name, 'gitdir'))
    if (pointer === null) continue
    const root = dirname(
      isAbsolute(pointer) ? pointer : resolve(layout.commonDir, 'worktrees', name, pointer),
    )
    const real = realOrNull(root) ?? root
    if (!main.includes(real) && !linked.includes(real)) linked.push(real)
  }
  linked.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const roots = [...main, ...linked]
  if (!roots.includes(layout.worktreeRoot)) roots.push(layout.worktreeRoot)
  return roots
}

/** undefined: no `.git` here, keep walking up; null: a `.git` we cannot read, stop. */
function layoutAt(dir: string): GitLayout | null | undefined {
  const dotGit = join(dir, '.git')
  let isDirectory: boolean
  try {
    isDirectory = statSync(dotGit).isDirectory()
  } catch {
    return undefined
  }
  const gitDir = isDirectory ? dotGit : linkedGitDir(dotGit)
  if (gitDir === null) return null
  const common = readTrimmed(join(gitDir, 'commondir'))
  const commonDir = realOrNull(common === null ? gitDir : resolve(gitDir, common))
  return commonDir === null ? null : { worktreeRoot: dir, gitDir, commonDir }
}

/** A linked worktree's `.git` is a file `gitdir: <path>`. */
function linkedGitDir(dotGitFile: string): string | null {
  const text = readTrimmed(dotGitFile)
  if (text === null || !text.startsWith('gitdir:')) return null
  const target = text.slice('gitdir:'.length).trim()
  return realOrNull(isAbsolute(target) ? target : resolve(dirname(dotGitFile), target))
}

function readTrimmed(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return null
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

/**
 * The branch checked out in the worktree at `worktreeRoot`, read from its `HEAD` file: null when
 * detached, when the worktree is gone, or when HEAD is unreadable. No git spawn (hooks call it).
 */
export function headBranch(worktreeRoot: string): string | null {
  const layout = findGitLayout(worktreeRoot)
  if (layout === null || layout.worktreeRoot !== (realOrNull(worktreeRoot) ?? worktreeRoot)) return null
  const head = readTrimmed(join(layout.gitDir, 'HEAD'))
  if (head === null || !head.startsWith('ref:')) return null
  const ref = head.slice('ref:'.length).trim()
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null
}
