import { existsSync } from 'node:fs'
import { runGit } from './git.ts'
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
 * worktree; its header names HEAD's commit), all of them run by one `git for-each-repo` (starting
 * a process from Node costs more than the status of a small worktree), then the dates of every
 * HEAD in one `git log --no-walk` run from the first worktree present.
 */
export function worktreeStatuses(paths: readonly string[]): WorktreeStatus[] {
  const present = paths.filter((path) => existsSync(path))
  const statuses = statusesOf(present)
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

/** The config key that hands `for-each-repo` its worktrees; nobody else's config sets it. */
const worktreeKey = 'sangam.statusworktree'

type Status = { uncommitted: number | null; head: string | null }

/**
 * One `git for-each-repo` running each worktree's status in turn. It stops at the first worktree
 * git cannot read, and a config of the user's own could add to its list: either way the outputs
 * do not match the worktrees one for one, and each worktree is asked on its own instead.
 */
function statusesOf(paths: readonly string[]): Map<string, Status> {
  if (paths.length > 1) {
    const run = runGit(
      [
        ...paths.flatMap((path) => ['-c', `${worktreeKey}=${path}`]),
        'for-each-repo',
        `--config=${worktreeKey}`,
        ...statusArgs,
      ],
      paths[0] as string,
    )
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
