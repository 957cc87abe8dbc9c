import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { gitOutput, gitOutputOrNull, runGit } from '../../git/git.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * The git a lane's integration runs, each call through `runGit` (the one spawner). Writes that
 * move `main` or touch a worktree carry `internalWrite`, the mark sangam's own main guard lets
 * through.
 */
export const internalWrite: Readonly<Record<string, string>> = { SANGAM_INTERNAL_WRITE: '1' }

/** The files of an unfinished git operation, in a worktree's own git dir. */
const unsafeMarkers = [
  'MERGE_HEAD',
  'REBASE_HEAD',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'BISECT_LOG',
  'rebase-merge',
  'rebase-apply',
  'index.lock',
]

/** The unfinished git operation in `worktree` (MERGE_HEAD, rebase-merge…), or null. */
export function unsafeGitState(worktree: string): string | null {
  const gitDir = gitOutput(['rev-parse', '--absolute-git-dir'], worktree)
  return unsafeMarkers.find((marker) => existsSync(join(gitDir, marker))) ?? null
}

/** Whether `worktree` has uncommitted changes (untracked files count, ignored ones do not). */
export function isDirty(worktree: string): boolean {
  return gitOutput(['status', '--porcelain', '--untracked-files=all'], worktree) !== ''
}

export function headOf(worktree: string): string {
  return gitOutput(['rev-parse', 'HEAD'], worktree)
}

export function refCommit(cwd: string, ref: string): string | null {
  return gitOutputOrNull(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd)
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export function isAncestor(cwd: string, ancestor: string, descendant: string): boolean {
  if (ancestor === descendant) return true
  return runGit(['merge-base', '--is-ancestor', ancestor, descendant], cwd).code === 0
}

/** Whether the commits of `head` since its merge base with `main` change no file. */
export function changesNothing(cwd: string, head: string, main: string): boolean {
  const base = gitOutputOrNull(['merge-base', head, main], cwd)
  if (base === null) return false
  return runGit(['diff', '--quiet', base, head], cwd).code === 0
}

/** Commits everything uncommitted in `worktree` (the lane's own identity, set per worktree). */
export function commitAll(worktree: string, message: string): string {
  must(runGit(['add', '-A'], worktree, undefined, internalWrite), 'add -A')
  must(
    runGit(
      ['commit', '-q', '--no-verify', '--no-gpg-sign', '-m', message],
      worktree,
      undefined,
      internalWrite,
    ),
    'commit',
  )
  return headOf(worktree)
}

/** Moves the worktree's branch, index and files to `commit`; untracked files stay. */
export function resetHard(worktree: string, commit: string): void {
  must(
    runGit(['reset', '-q', '--hard', commit], worktree, undefined, internalWrite),
    `reset --hard ${commit}`,
  )
}

/** Moves the branch to `commit` and leaves the files: a snapshot commit becomes uncommitted work again. */
export function resetMixed(worktree: string, commit: string): void {
  must(
    runGit(['reset', '-q', '--mixed', commit], worktree, undefined, internalWrite),
    `reset --mixed ${commit}`,
  )
}

/** Writes `ref` = `commit` (creating or moving it). */
export function writeRef(cwd: string, ref: string, commit: string): void {
  must(runGit(['update-ref', ref, commit], cwd, undefined, internalWrite), `update-ref ${ref}`)
}

export function must(result: { code: number; stderr: string; stdout: string }, what: string): string {
  if (result.code !== 0)
    throw new SangamError(
      ErrorCode.GitFailed,
      `git ${what} failed: ${(result.stderr || result.stdout).trim()}`,
    )
  return result.stdout
}

/** The worktree (absolute path) where `branch` is checked out, or null. */
export function worktreeOfBranch(cwd: string, branch: string): string | null {
  const listing = gitOutput(['worktree', 'list', '--porcelain'], cwd)
  let path: string | null = null
  for (const line of listing.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length)
    else if (line === `branch refs/heads/${branch}` && path !== null) return path
  }
  return null
}
