import { gitOutputOrNull } from './git.ts'

export interface Commit {
  readonly id: string
  readonly shortId: string
  readonly author: string
  /** ms epoch of the commit (committer date: when it landed here). */
  readonly at: number
  readonly subject: string
}

/** Commits and how many there were in all, when more exist than were asked for. */
export interface CommitList {
  readonly commits: readonly Commit[]
  readonly total: number
}

const fieldSep = '\x1f'
const recordSep = '\x1e'
const format = ['%H', '%h', '%an', '%ct', '%s'].join('%x1f')

/**
 * Commits reachable from `to` and not from `from`, newest first, at most `limit`. When `from` is
 * gone (garbage-collected after a rebase) this answers null, and the caller falls back to a time.
 */
export function commitsBetween(cwd: string, from: string, to: string, limit: number): CommitList | null {
  return commitList(cwd, [`${from}..${to}`], limit)
}

/** Commits on `ref` committed at or after `since` (ms epoch), newest first, at most `limit`. */
export function commitsSince(cwd: string, ref: string, since: number, limit: number): CommitList {
  return commitList(cwd, [`--since=@${Math.floor(since / 1000)}`, ref], limit) ?? empty
}

/** The newest `limit` commits on `ref`. */
export function recentCommits(cwd: string, ref: string, limit: number): CommitList {
  return commitList(cwd, [ref], limit) ?? empty
}

const empty: CommitList = { commits: [], total: 0 }

/** null when git refuses the range (a commit in it does not exist). */
function commitList(cwd: string, range: readonly string[], limit: number): CommitList | null {
  const out = gitOutputOrNull(
    ['log', `--max-count=${limit}`, `--format=${format}${'%x1e'}`, ...range, '--'],
    cwd,
  )
  if (out === null) return null
  const commits = out
    .split(recordSep)
    .map((record) => record.trim())
    .filter((record) => record !== '')
    .map(parseCommit)
  if (commits.length < limit) return { commits, total: commits.length }
  const count = gitOutputOrNull(['rev-list', '--count', ...range, '--'], cwd)
  return { commits, total: Math.max(commits.length, Number(count ?? commits.length)) }
}

function parseCommit(record: string): Commit {
  const [id = '', shortId = '', author = '', seconds = '0', ...subject] = record.split(fieldSep)
  return { id, shortId, author, at: Number(seconds) * 1000, subject: subject.join(fieldSep) }
}
