import { existsSync } from 'node:fs'
import { runGit } from './git.ts'
import { worktreeChanges } from './worktree-changes.ts'

/** What `targets` shows of one worktree on this machine. */
export interface WorktreeStatus {
  readonly path: string
  /** The directory is gone (git still lists it: `git worktree prune` would drop it). */
  readonly missing: boolean
  /** Paths `git status` reports (staged, unstaged, untracked) but sangam's own; null when missing or unreadable. */
  readonly uncommitted: number | null
  /** ms epoch of HEAD's committer date; null when missing or on an unborn branch. */
  readonly headCommittedAt: number | null
}

/**
 * Status of each worktree: one `git status --porcelain=v2 --branch` per worktree (the index is
 * per worktree; its header names HEAD's commit), then the dates of every HEAD in one
 * `git log --no-walk` run from the first worktree present.
 */
export function worktreeStatuses(paths: readonly string[]): WorktreeStatus[] {
  const statuses = new Map<string, { uncommitted: number | null; head: string | null }>()
  for (const path of paths) if (existsSync(path)) statuses.set(path, statusOf(path))
  const heads = [
    ...new Set([...statuses.values()].flatMap((status) => (status.head === null ? [] : [status.head]))),
  ]
  const dates = commitDates(heads, statuses.keys().next().value)
  return paths.map((path) => {
    const status = statuses.get(path)
    if (status === undefined) return { path, missing: true, uncommitted: null, headCommittedAt: null }
    return {
      path,
      missing: false,
      uncommitted: status.uncommitted,
      headCommittedAt: status.head === null ? null : (dates.get(status.head) ?? null),
    }
  })
}

function statusOf(path: string): { uncommitted: number | null; head: string | null } {
  const changes = worktreeChanges(path)
  return changes === null
    ? { uncommitted: null, head: null }
    : { uncommitted: changes.uncommitted.length, head: changes.head }
}

function commitDates(commits: readonly string[], cwd: string | undefined): Map<string, number> {
  const dates = new Map<string, number>()
  if (commits.length === 0 || cwd === undefined) return dates
  const log = runGit(['log', '--no-walk=unsorted', '--format=%H %ct', ...commits], cwd)
  if (log.code !== 0) return dates
  for (const line of log.stdout.split('\n')) {
    const [hash, seconds] = line.split(' ')
    if (hash && seconds) dates.set(hash, Number(seconds) * 1000)
  }
  return dates
}
