import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { gitOutput, gitOutputOrNull, runGit } from '../../git/git.ts'
import { findGitLayout, headBranch, worktreeRoots } from '../../git/git-layout.ts'
import { addAllBut, sangamsOwnChanges } from '../../git/own-changes.ts'
import { commitFromFiles, openRefFiles } from '../../git/ref-files.ts'
import { type WorktreeChanges, worktreeChanges } from '../../git/worktree-changes.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { DirtyFile } from '../core/worktree-dirt.ts'

/**
 * The git a lane's integration runs, each call through `runGit` (the one spawner). Each spawn is
 * several milliseconds of a sync, so what the file system answers (a worktree's git dir, which
 * worktree has a branch checked out) is read without git, and one status answers both HEAD and
 * dirtiness. Only the git that moves `main` carries the guard's token
 * (`integratorEnvironment`, main-guard-file.ts); nothing else needs letting through.
 */

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
  const layout = findGitLayout(worktree)
  const gitDir =
    layout !== null && layout.worktreeRoot === worktree
      ? layout.gitDir
      : gitOutput(['rev-parse', '--absolute-git-dir'], worktree)
  return unsafeMarkers.find((marker) => existsSync(join(gitDir, marker))) ?? null
}

/**
 * Whether `worktree` has uncommitted changes (untracked files count, ignored ones do not, nor
 * sangam's own files: `worktreeChanges`).
 */
export function isDirty(worktree: string): boolean {
  return changesOf(worktree).uncommitted.length > 0
}

/** What is uncommitted in `worktree`, file by file (untracked files too, ignored ones not). */
export function dirtyFiles(worktree: string): DirtyFile[] {
  const out = must(runGit(['status', '--porcelain', '-z', '--untracked-files=all'], worktree), 'status')
  const files: DirtyFile[] = []
  const fields = out.split('\0')
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? ''
    if (field.length < 4) continue
    const status = field.slice(0, 2)
    files.push({ status, path: field.slice(3) })
    // A rename or copy names its source in the next field.
    if (status[0] === 'R' || status[0] === 'C') i += 1
  }
  // sangam's own files are nobody's work, as `isDirty` counts (worktree-changes.ts).
  const own = sangamsOwnChanges(
    worktree,
    files.map((file) => ({ path: file.path, tracked: file.status !== '??' })),
  )
  return files.filter((file) => !own.has(file.path))
}

/**
 * The commit whose files the index of `worktree` holds exactly, among the latest 2,000 commits of
 * every ref (what a `git reset --hard <commit>` or a fast-forward that the main guard refused leaves
 * staged: git moved the files before the ref move was refused); null when none does.
 */
export function commitOfIndex(worktree: string): string | null {
  const tree = runGit(['write-tree'], worktree)
  if (tree.code !== 0) return null
  const wanted = tree.stdout.trim()
  const log = runGit(['log', '--all', '-n', '2000', '--format=%H %T'], worktree)
  if (log.code !== 0) return null
  for (const line of log.stdout.split('\n')) {
    const [commit, of] = line.split(' ')
    if (of === wanted && commit !== undefined) return commit
  }
  return null
}

/** A worktree's HEAD, whether it holds uncommitted work, and sangam's own changed files. */
export interface WorktreeState {
  readonly head: string
  readonly dirty: boolean
  /** sangam's own changed files, which a snapshot of the work leaves out (`commitAll`). */
  readonly own: readonly string[]
}

/** A worktree's HEAD commit and whether it has uncommitted changes, from one `git status`. */
export function worktreeState(worktree: string): WorktreeState {
  const changes = changesOf(worktree)
  const { head } = changes
  if (head === null || !/^[0-9a-f]{40,64}$/.test(head))
    throw new SangamError(ErrorCode.GitFailed, `git status in ${worktree} named no HEAD commit`)
  return { head, dirty: changes.uncommitted.length > 0, own: changes.own }
}

function changesOf(worktree: string): WorktreeChanges {
  const changes = worktreeChanges(worktree)
  if (changes === null) throw new SangamError(ErrorCode.GitFailed, `git status failed in ${worktree}`)
  return changes
}

/** The worktree's HEAD commit, read from its files where they can say (`RefFiles`). */
export function headOf(worktree: string): string {
  const fromFiles = openRefFiles(worktree)?.head()?.commit
  return typeof fromFiles === 'string' ? fromFiles : gitOutput(['rev-parse', 'HEAD'], worktree)
}

/** The commit `ref` names, or null; read from the ref files where they can say (`commitFromFiles`). */
export function refCommit(cwd: string, ref: string): string | null {
  const fromFiles = commitFromFiles(cwd, ref)
  if (fromFiles !== undefined) return fromFiles
  return gitOutputOrNull(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd)
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export function isAncestor(cwd: string, ancestor: string, descendant: string): boolean {
  if (ancestor === descendant) return true
  return runGit(['merge-base', '--is-ancestor', ancestor, descendant], cwd).code === 0
}

/** The best common ancestor of `a` and `b` (one of them when it is the other's ancestor), or null. */
export function mergeBase(cwd: string, a: string, b: string): string | null {
  if (a === b) return a
  return gitOutputOrNull(['merge-base', a, b], cwd)
}

/** Whether the commits of `head` since `base` (its merge base with main) change no file. */
export function changesNothing(cwd: string, base: string, head: string): boolean {
  return runGit(['diff', '--quiet', base, head], cwd).code === 0
}

/**
 * Commits everything uncommitted in `worktree` (the lane's own identity, set per worktree) but
 * sangam's own changes (D311): a hook file naming this machine's path is never published. `own`
 * is what the sync's status found of them (`worktreeState`), so no second status is asked.
 */
export function commitAll(worktree: string, message: string, own: readonly string[]): string {
  stageAllBut(worktree, own)
  must(runGit(['commit', '-q', '--no-verify', '--no-gpg-sign', '-m', message], worktree), 'commit')
  return headOf(worktree)
}

/**
 * A commit of everything uncommitted in `worktree` but sangam's own changes, on `head`, made
 * without moving any ref (`git commit-tree`): the caller moves HEAD in the same ref transaction
 * as the refs that must move with it (`writeRefs`), and a snapshot that is never kept moves
 * nothing. No commit hook runs, as none runs for `commitAll`'s `--no-verify` snapshot either.
 */
export function snapshotCommit(
  worktree: string,
  head: string,
  message: string,
  own: readonly string[],
): string {
  stageAllBut(worktree, own)
  const tree = must(runGit(['write-tree'], worktree), 'write-tree').trim()
  return commitTree(worktree, tree, [head], message)
}

/** A commit of `tree` on `parents` (the lane's identity), made without moving any ref. */
export function commitTree(
  worktree: string,
  tree: string,
  parents: readonly string[],
  message: string,
): string {
  const parentArgs = parents.flatMap((parent) => ['-p', parent])
  return must(
    runGit(['commit-tree', '--no-gpg-sign', ...parentArgs, '-m', message, tree], worktree),
    'commit-tree',
  ).trim()
}

function stageAllBut(worktree: string, own: readonly string[]): void {
  must(runGit(['add', ...addAllBut(own)], worktree), 'add -A')
}

/** Moves the worktree's branch, index and files to `commit`; untracked files stay. */
export function resetHard(worktree: string, commit: string): void {
  must(runGit(['reset', '-q', '--hard', commit], worktree), `reset --hard ${commit}`)
}

/** Moves the branch to `commit` and leaves the files: a snapshot commit becomes uncommitted work again. */
export function resetMixed(worktree: string, commit: string): void {
  must(runGit(['reset', '-q', '--mixed', commit], worktree), `reset --mixed ${commit}`)
}

/**
 * Writes every `[ref, commit]` (creating or moving each; with a third field, only if the ref still
 * names that commit) in one git process and one transaction, run in `cwd`: `HEAD` is that
 * worktree's, and moves the branch it names.
 */
export function writeRefs(
  cwd: string,
  refs: readonly (readonly [ref: string, commit: string, expected?: string])[],
  reason?: string,
): void {
  const input = refs
    .map(
      ([ref, commit, expected]) => `update ${ref} ${commit}${expected === undefined ? '' : ` ${expected}`}\n`,
    )
    .join('')
  must(
    runGit(['update-ref', ...(reason === undefined ? [] : ['-m', reason]), '--stdin'], cwd, input),
    `update-ref ${refs.map(([ref]) => ref).join(' ')}`,
  )
}

/** Writes `ref` = `commit` (creating or moving it). */
export function writeRef(cwd: string, ref: string, commit: string): void {
  must(runGit(['update-ref', ref, commit], cwd), `update-ref ${ref}`)
}

export function must(result: { code: number; stderr: string; stdout: string }, what: string): string {
  if (result.code !== 0)
    throw new SangamError(
      ErrorCode.GitFailed,
      `git ${what} failed: ${(result.stderr || result.stdout).trim()}`,
    )
  return result.stdout
}

/**
 * The worktree (absolute path) where `branch` is checked out, or null: read from each worktree's
 * HEAD file (`git-layout.ts`), asking `git worktree list` only where the layout is unusual.
 */
export function worktreeOfBranch(cwd: string, branch: string): string | null {
  const layout = findGitLayout(cwd)
  if (layout !== null) {
    for (const root of worktreeRoots(layout)) if (existsSync(root) && headBranch(root) === branch) return root
    return null
  }
  const listing = gitOutput(['worktree', 'list', '--porcelain'], cwd)
  let path: string | null = null
  for (const line of listing.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length)
    else if (line === `branch refs/heads/${branch}` && path !== null) return path
  }
  return null
}
