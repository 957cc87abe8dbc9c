import { existsSync } from 'node:fs'
import { runGit, runGitEachAsync } from './git.ts'
import { changesFromStatus, splitStatuses, statusArgs, worktreeChanges } from './worktree-changes.ts'

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
 * Status of each worktree: one `git status --porcelain=v2 --branch` each (the index is per
 * worktree; its header names HEAD's commit), run by two `sh` side by side, each for half of them
 * (a process started from Node costs more than a small worktree's status, and sh starts git
 * cheaply, so two at a time use both cores), then the dates of every HEAD in one `git log
 * --no-walk` run from the first worktree present.
 */
export async function worktreeStatuses(paths: readonly string[]): Promise<WorktreeStatus[]> {
  const present = paths.filter((path) => existsSync(path))
  const half = Math.ceil(present.length / 2)
  const halves = await Promise.all([present.slice(0, half), present.slice(half)].map(statusesOf))
  const statuses = new Map(halves.flatMap((answers) => [...answers]))
  const heads = [
    ...new Set([...statuses.values()].flatMap((status) => (status.head === null ? [] : [status.head]))),
  ]
  const dates = commitDates(heads, present[0])
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

type Status = { uncommitted: number | null; head: string | null }

/**
 * Each worktree's status in turn, from one `sh` (`runGitEachAsync`). It stops at the first
 * worktree git cannot read: then the outputs do not match the worktrees one for one, and each
 * worktree is asked on its own instead.
 */
async function statusesOf(paths: readonly string[]): Promise<Map<string, Status>> {
  if (paths.length > 1) {
    const run = await runGitEachAsync(paths, statusArgs)
    const outputs = run.code === 0 ? splitStatuses(run.stdout) : []
    if (outputs.length === paths.length) {
      return new Map(
        paths.map((path, i) => {
          const changes = changesFromStatus(path, outputs[i] as string)
          return [path, { uncommitted: changes.uncommitted.length, head: changes.head }]
        }),
      )
    }
  }
  return new Map(paths.map((path) => [path, statusOf(path)]))
}

function statusOf(path: string): Status {
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
