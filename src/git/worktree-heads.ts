import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { runGit } from './git.ts'
import { openRefFiles, RefFiles } from './ref-files.ts'

/** One worktree as `git worktree list --porcelain` reports it. */
export interface WorktreeHead {
  /**
   * Absolute path: the real path when the directory exists (what the hooks' layout and
   * `openRepository` list, so the overlap picture's rows match them), else as git records it.
   */
  readonly path: string
  /** HEAD's commit; null on an unborn branch or when the branch checked out no longer exists. */
  readonly head: string | null
  /** The branch checked out (short name); null when detached. */
  readonly branch: string | null
  /** The directory is gone (git still lists it until `git worktree prune`). */
  readonly missing: boolean
  /** A bare repository's own entry: no working tree to look at. */
  readonly bare: boolean
}

const zeroOid = /^0+$/

/**
 * Every worktree and its HEAD, the main one first and the linked ones by path: read from the
 * files of each worktree's git dir (`ref-files.ts`) where they can be, else from git.
 */
export function worktreeHeads(cwd: string): WorktreeHead[] {
  return worktreeHeadsFromFiles(cwd) ?? worktreeHeadsFromGit(cwd)
}

/**
 * The worktrees under `<common>/worktrees/` (each one's `gitdir` names its checkout) and the main
 * one, each HEAD read from its own git dir; null where only git can say (a bare repository, a
 * separate git dir, a file this reader does not understand).
 */
function worktreeHeadsFromFiles(cwd: string): WorktreeHead[] | null {
  const files = openRefFiles(cwd)
  if (files === null) return null
  const { commonDir } = files.layout
  if (basename(commonDir) !== '.git') return null
  const entries = [{ root: dirname(commonDir), gitDir: commonDir }]
  let names: string[] = []
  try {
    names = readdirSync(join(commonDir, 'worktrees'))
  } catch {
    names = []
  }
  const linked: { root: string; gitDir: string }[] = []
  for (const name of names) {
    const gitDir = join(commonDir, 'worktrees', name)
    let pointer: string
    try {
      pointer = readFileSync(join(gitDir, 'gitdir'), 'utf8').trim()
    } catch {
      continue
    }
    linked.push({ root: realOr(dirname(isAbsolute(pointer) ? pointer : resolve(gitDir, pointer))), gitDir })
  }
  linked.sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0))
  const heads: WorktreeHead[] = []
  for (const { root, gitDir } of [...entries, ...linked]) {
    const head = new RefFiles({ worktreeRoot: root, gitDir, commonDir }).head()
    if (head === null) return null
    heads.push({
      path: root,
      head: head.commit,
      branch: head.symref?.startsWith('refs/heads/') ? head.symref.slice('refs/heads/'.length) : null,
      missing: !existsSync(root),
      bare: false,
    })
  }
  return heads
}

/**
 * Every worktree and its HEAD in one `git worktree list --porcelain -z`: entries are runs of
 * NUL-terminated `key value` attributes separated by an empty one. A branch deleted from under
 * its worktree (`update-ref -d`) shows the all-zero HEAD: head null, branch still named.
 */
function worktreeHeadsFromGit(cwd: string): WorktreeHead[] {
  const result = runGit(['worktree', 'list', '--porcelain', '-z'], cwd)
  if (result.code !== 0) {
    throw new SangamError(ErrorCode.GitFailed, `git worktree list failed: ${result.stderr.trim()}`)
  }
  const heads: WorktreeHead[] = []
  let entry: {
    path: string
    head: string | null
    branch: string | null
    prunable: boolean
    bare: boolean
  } | null = null
  const flush = (): void => {
    if (entry === null) return
    heads.push({
      path: realOr(entry.path),
      head: entry.head,
      branch: entry.branch,
      missing: !entry.bare && (entry.prunable || !existsSync(entry.path)),
      bare: entry.bare,
    })
    entry = null
  }
  for (const item of result.stdout.split('\0')) {
    if (item === '') {
      flush()
      continue
    }
    const space = item.indexOf(' ')
    const key = space === -1 ? item : item.slice(0, space)
    const value = space === -1 ? '' : item.slice(space + 1)
    if (key === 'worktree') {
      flush()
      entry = { path: value, head: null, branch: null, prunable: false, bare: false }
    } else if (entry === null) {
    } else if (key === 'HEAD') entry.head = zeroOid.test(value) ? null : value
    else if (key === 'branch') entry.branch = value.startsWith('refs/heads/') ? value.slice(11) : value
    else if (key === 'prunable') entry.prunable = true
    else if (key === 'bare') entry.bare = true
  }
  flush()
  return heads
}

function realOr(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
