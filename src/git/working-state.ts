import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { runGit } from './git.ts'
import { findGitLayout } from './git-layout.ts'

/** A worktree's working state as a commit, and the paths in which it differs from HEAD. */
export interface WorkingState {
  /** HEAD itself when nothing is uncommitted, else a commit whose parent is HEAD. */
  readonly commit: string
  /** Repository-relative paths changed, added (untracked, not ignored) or deleted since HEAD. */
  readonly uncommitted: readonly string[]
}

/**
 * A fixed identity and date: the same working state over the same HEAD is always the same commit,
 * so merge results memoised by commit id still apply to it on the next round.
 */
const fixedIdentity = {
  GIT_AUTHOR_NAME: 'sangam',
  GIT_AUTHOR_EMAIL: 'sangam@localhost',
  GIT_AUTHOR_DATE: '@1000000000 +0000',
  GIT_COMMITTER_NAME: 'sangam',
  GIT_COMMITTER_EMAIL: 'sangam@localhost',
  GIT_COMMITTER_DATE: '@1000000000 +0000',
}

/**
 * The worktree at `path` (HEAD `head`) as a commit, made without touching its index, its files or
 * any ref: a temporary index (a copy of the worktree's own, so `git add` reuses its stat cache and
 * hashes only what changed; seeded from HEAD when the worktree has none), `git add -A` into it
 * (untracked files included, ignored ones not), `diff-index` against HEAD for what differs, then
 * `write-tree` and `commit-tree`. Only objects are written (loose, unreachable: `git gc` drops
 * them in time).
 */
export function workingState(path: string, head: string): WorkingState {
  const layout = findGitLayout(path)
  const temp = mkdtempSync(join(tmpdir(), 'sangam-index-'))
  try {
    const index = join(temp, 'index')
    const env = { ...fixedIdentity, GIT_INDEX_FILE: index, GIT_OPTIONAL_LOCKS: '0' }
    let seeded = false
    if (layout !== null) {
      try {
        copyFileSync(join(layout.gitDir, 'index'), index)
        seeded = true
      } catch {
        seeded = false
      }
    }
    if (!seeded) must(runGit(['read-tree', head], path, undefined, env), 'read-tree')
    must(runGit(['add', '-A'], path, undefined, env), 'add -A')
    const diff = must(
      runGit(['diff-index', '--cached', '--no-renames', '--name-only', '-z', head], path, undefined, env),
      'diff-index',
    )
    const uncommitted = diff.split('\0').filter((item) => item !== '')
    if (uncommitted.length === 0) return { commit: head, uncommitted }
    const tree = must(runGit(['write-tree'], path, undefined, env), 'write-tree').trim()
    const commit = must(
      runGit(
        ['commit-tree', '--no-gpg-sign', tree, '-p', head, '-m', 'sangam: working state'],
        path,
        undefined,
        env,
      ),
      'commit-tree',
    ).trim()
    return { commit, uncommitted }
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

function must(result: { code: number; stdout: string; stderr: string }, what: string): string {
  if (result.code !== 0) {
    throw new SangamError(
      ErrorCode.GitFailed,
      `git ${what} for the working state failed: ${result.stderr.trim()}`,
    )
  }
  return result.stdout
}
