import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mapLimit } from '../shared/map-limit.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { type GitResult, runGitAsync } from './git.ts'
import { findGitLayout } from './git-layout.ts'
import { addAllBut, isOwnFilePath, sangamsOwnChangesSince } from './own-changes.ts'
import { racyWindowNs, type WorkingStateKey, workingStateKey } from './working-state-key.ts'
import { parseStatus } from './worktree-changes.ts'

/** A worktree's working state as a commit, and the paths in which it differs from HEAD. */
export interface WorkingState {
  /** HEAD itself when nothing is uncommitted, else a commit whose parent is HEAD. */
  readonly commit: string
  /** Repository-relative paths changed, added (untracked, not ignored) or deleted since HEAD; never sangam's own. */
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
 * Working states kept from earlier readings (this process's or another's: the daemon's rounds),
 * by `workingStateKey`: a dirty worktree whose key is kept is that state, without the temporary
 * index. Only keys read well before the reading that made their state are written (`racyWindowNs`).
 */
export interface WorkingStateMemo {
  readonly read: (keys: readonly string[]) => ReadonlyMap<string, WorkingState>
  readonly write: (entries: readonly { readonly key: string; readonly state: WorkingState }[]) => void
}

/** A worktree to read: its top level and HEAD's commit. */
export interface WorktreeAtHead {
  readonly path: string
  readonly head: string
}

/**
 * Each worktree (HEAD `head`) as a commit, made without touching its index, its files or any ref.
 * First one `git status` per worktree: a clean one (most, usually) is its HEAD, and nothing more
 * runs for it. A dirty one gets a temporary index (a copy of the worktree's own, so `git add`
 * reuses its stat cache and hashes only what changed; seeded from HEAD when the worktree has
 * none), `git add -A` into it (untracked files included, ignored ones not, nor sangam's own files:
 * `own-changes.ts`), `write-tree`; a tree equal to HEAD's is HEAD itself, any other becomes
 * `commit-tree -p HEAD`. What differs from HEAD comes from one `diff-tree --stdin` for all of them.
 * Only objects are written (loose and unreachable: `git gc` drops them in time). With `memo`, a
 * dirty worktree whose key (`workingStateKey`: its status entries and its changed files' status)
 * is kept, and whose commit is still there, is the kept state and gets no temporary index; the
 * states made are kept for the next reading. `concurrency` worktrees are read side by side. A worktree deleted while it was being read is null; any other
 * failure of git throws.
 */
export async function workingStates(
  cwd: string,
  worktrees: readonly WorktreeAtHead[],
  concurrency: number,
  memo?: WorkingStateMemo,
): Promise<(WorkingState | null)[]> {
  if (worktrees.length === 0) return []
  const looks = await mapLimit(worktrees, concurrency, (worktree) => statusLook(worktree))
  const keyOf = (i: number) => {
    const look = looks[i]
    return look !== undefined && look !== 'clean' ? look.key : null
  }
  const keys = worktrees.flatMap((_, i) => keyOf(i)?.key ?? [])
  const kept = memo === undefined || keys.length === 0 ? new Map<string, WorkingState>() : memo.read(keys)
  const keptStates = worktrees.map((worktree, i) => {
    const key = keyOf(i)
    const state = key === null ? undefined : kept.get(key.key)
    // An object `git gc` pruned since (loose and unreachable, as every state commit is) is read again.
    return state !== undefined && hasCommit(worktree, state) ? state : undefined
  })
  const dirtyAt = worktrees.flatMap((_, i) =>
    looks[i] !== 'clean' && keptStates[i] === undefined ? [i] : [],
  )
  const dirty = dirtyAt.map((i) => worktrees[i] as WorktreeAtHead)
  const made = await dirtyWorkingStates(cwd, dirty, concurrency)
  const stateOf = new Map(dirtyAt.map((i, j) => [i, made[j]?.state ?? null]))
  if (memo !== undefined) {
    memo.write(
      dirtyAt.flatMap((i, j) => {
        const key = keyOf(i)
        const reading = made[j]
        if (key === null || reading == null || reading.state === null) return []
        // A file changed this close to the reading may change again without its status moving.
        if (key.newestMtimeNs + racyWindowNs > reading.startedNs) return []
        return [{ key: key.key, state: reading.state }]
      }),
    )
  }
  return worktrees.map((worktree, i): WorkingState | null => {
    if (looks[i] === 'clean') return { commit: worktree.head, uncommitted: [] }
    return keptStates[i] ?? stateOf.get(i) ?? null
  })
}

/**
 * One `git status --porcelain=v2` of the worktree, without refreshing its index
 * (`--no-optional-locks`): `clean` when nothing is uncommitted (staged, unstaged or untracked;
 * ignored files do not count, as `git add -A` does not take them) and HEAD is still `head`; else
 * its working state's key (null: none, or git could not read it, and the full reading says why).
 */
async function statusLook(worktree: WorktreeAtHead): Promise<'clean' | { key: WorkingStateKey | null }> {
  let result: GitResult
  try {
    result = await runGitAsync(
      ['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'],
      worktree.path,
    )
  } catch {
    return { key: null }
  }
  if (result.code !== 0) return { key: null }
  const { head, changed } = parseStatus(result.stdout)
  if (head !== worktree.head) return { key: null }
  if (changed.length === 0) return 'clean'
  return {
    key: workingStateKey(
      worktree.path,
      worktree.head,
      result.stdout,
      changed.map((entry) => entry.path),
    ),
  }
}

/** Whether a kept state's commit is still in the object store (HEAD is; a made one is loose). */
function hasCommit(worktree: WorktreeAtHead, state: WorkingState): boolean {
  if (state.commit === worktree.head) return true
  const layout = findGitLayout(worktree.path)
  if (layout === null) return false
  return existsSync(join(layout.commonDir, 'objects', state.commit.slice(0, 2), state.commit.slice(2)))
}

/** A working state made through a temporary index, and when that reading started (file time, ns). */
interface Reading {
  readonly state: WorkingState | null
  readonly startedNs: bigint
}

/** The worktrees with uncommitted work, each through a temporary index (see `workingStates`). */
async function dirtyWorkingStates(
  cwd: string,
  worktrees: readonly WorktreeAtHead[],
  concurrency: number,
): Promise<Reading[]> {
  if (worktrees.length === 0) return []
  const heads = [...new Set(worktrees.map((worktree) => worktree.head))]
  const treeLines = must(
    await runGitAsync(['rev-parse', ...heads.map((head) => `${head}^{tree}`)], cwd),
    'rev-parse',
  ).split('\n')
  const headTreeOf = new Map(heads.map((head, i) => [head, treeLines[i] ?? '']))
  const firsts = await mapLimit(worktrees, concurrency, async (worktree): Promise<StateCommit | null> => {
    try {
      return await stateCommit(worktree.path, worktree.head, headTreeOf.get(worktree.head) ?? '', [])
    } catch (error) {
      if (!existsSync(worktree.path)) return null
      throw error
    }
  })
  const commits = firsts.map((first) => first?.commit ?? null)
  const changed = await changedPaths(cwd, made(worktrees, commits))
  // sangam's own files (a hook file install-hooks wrote, say) are nobody's work: a worktree whose
  // state holds one is read again without it. With them kept out of git (info/exclude) this never
  // runs; it is for a clone where they are not, and for a tracked file only sangam changed.
  const again = await mapLimit(worktrees, concurrency, async (worktree, i): Promise<StateCommit | null> => {
    const commit = commits[i]
    if (commit === null || commit === undefined || commit === worktree.head) return null
    const candidates = (changed.get(commit) ?? []).filter(isOwnFilePath)
    if (candidates.length === 0) return null
    const own = await sangamsOwnChangesSince(worktree.path, worktree.head, candidates)
    if (own.size === 0) return null
    try {
      const headTree = headTreeOf.get(worktree.head) ?? ''
      return await stateCommit(worktree.path, worktree.head, headTree, [...own])
    } catch (error) {
      if (!existsSync(worktree.path)) return null
      throw error
    }
  })
  const redone = firsts.map((first, i) => again[i] ?? first)
  const changedAgain = await changedPaths(
    cwd,
    made(
      worktrees,
      redone.map((reading) => reading?.commit ?? null),
    ).filter((commit) => !changed.has(commit)),
  )
  return worktrees.map((worktree, i): Reading => {
    const reading = redone[i]
    if (reading === null || reading === undefined) return { state: null, startedNs: 0n }
    const { commit, startedNs } = reading
    if (commit === worktree.head) return { state: { commit, uncommitted: [] }, startedNs }
    return {
      state: { commit, uncommitted: changed.get(commit) ?? changedAgain.get(commit) ?? [] },
      startedNs,
    }
  })
}

/** The commits made for worktrees with uncommitted work (the rest are their HEAD, or unread). */
function made(
  worktrees: readonly WorktreeAtHead[],
  commits: readonly (string | null | undefined)[],
): string[] {
  return worktrees.flatMap((worktree, i) => {
    const commit = commits[i]
    return commit === null || commit === undefined || commit === worktree.head ? [] : [commit]
  })
}

/** One worktree (HEAD `head`) as a commit: see `workingStates`. */
export async function workingState(path: string, head: string): Promise<WorkingState> {
  const [state] = await workingStates(path, [{ path, head }], 1)
  if (state === null || state === undefined) {
    throw new SangamError(ErrorCode.GitFailed, `${path} is gone: no working state to read`)
  }
  return state
}

/** A state commit and when its `git add` was about to start: its temporary folder's last change (ns). */
interface StateCommit {
  readonly commit: string
  readonly startedNs: bigint
}

/** `leftOut`: paths `git add` does not take, so they stay as HEAD (or the index) has them. */
async function stateCommit(
  path: string,
  head: string,
  headTree: string,
  leftOut: readonly string[],
): Promise<StateCommit> {
  const layout = findGitLayout(path)
  const temp = mkdtempSync(join(tmpdir(), 'sangam-index-'))
  try {
    const index = join(temp, 'index')
    const env = { ...fixedIdentity, GIT_INDEX_FILE: index, GIT_OPTIONAL_LOCKS: '0' }
    let seeded = false
    if (layout !== null) {
      try {
        const real = join(layout.gitDir, 'index')
        const { atimeMs, mtimeMs } = statSync(real)
        copyFileSync(real, index)
        // The copy keeps the index's mtime (rounded down): git takes an entry whose file changed
        // in the index's own second for "racy" and re-reads it, and a newer mtime on the copy
        // would make it trust a same-size edit's stat instead.
        utimesSync(index, Math.floor(atimeMs) / 1000, Math.floor(mtimeMs) / 1000)
        seeded = true
      } catch {
        seeded = false
      }
    }
    if (!seeded) must(await runGitAsync(['read-tree', head], path, undefined, env), 'read-tree')
    // The file system's time before `git add` reads a byte (the folder changed when the index
    // came into it): a key whose files changed well before it stays true (working-state-key.ts).
    const startedNs = statSync(temp, { bigint: true }).mtimeNs
    must(await runGitAsync(['add', ...addAllBut(leftOut)], path, undefined, env), 'add -A')
    const tree = must(await runGitAsync(['write-tree'], path, undefined, env), 'write-tree').trim()
    if (tree === headTree) return { commit: head, startedNs }
    const commit = must(
      await runGitAsync(
        ['commit-tree', '--no-gpg-sign', tree, '-p', head, '-m', 'sangam: working state'],
        path,
        undefined,
        env,
      ),
      'commit-tree',
    ).trim()
    return { commit, startedNs }
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

/**
 * What each commit changes against its parent, in one `git diff-tree --stdin -z`: each commit's
 * id, then its paths, NUL-terminated. A header is recognised only as the next commit asked for.
 */
async function changedPaths(cwd: string, commits: readonly string[]): Promise<Map<string, string[]>> {
  const changed = new Map<string, string[]>()
  if (commits.length === 0) return changed
  const out = must(
    await runGitAsync(
      ['diff-tree', '--stdin', '-r', '--no-renames', '--name-only', '-z'],
      cwd,
      commits.map((commit) => `${commit}\n`).join(''),
    ),
    'diff-tree',
  )
  let next = 0
  let current: string[] | null = null
  for (const item of out.split('\0')) {
    if (item === '') continue
    if (next < commits.length && item === commits[next]) {
      current = []
      changed.set(item, current)
      next += 1
      continue
    }
    current?.push(item)
  }
  return changed
}

function must(result: GitResult, what: string): string {
  if (result.code !== 0) {
    throw new SangamError(
      ErrorCode.GitFailed,
      `git ${what} for the working state failed: ${result.stderr.trim()}`,
    )
  }
  return result.stdout
}
