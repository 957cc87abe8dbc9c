import type { ConflictGroup } from './overlap-picture.ts'

/** What the daemon remembers of one colliding set of worktrees (room/store/ready-conflict-table.ts). */
export interface KnownConflict {
  /** The set's key: its sorted worktree paths, one per line. */
  readonly key: string
  readonly threadId: string
  /** The thread's state in the room (null: gone from the replica). */
  readonly threadOpen: boolean | null
  /** The lanes' commits when the thread was opened (sorted, one per line). */
  readonly commits: string
  /** The daemon closed it (the collision went away); false: someone closed it by hand. */
  readonly closedByReady: boolean
}

export interface ConflictThreadPlan {
  /** Groups that need a new thread (and its one post). */
  readonly open: readonly ConflictGroup[]
  /** Open threads whose collision is gone: the daemon closes them. */
  readonly close: readonly KnownConflict[]
}

export function conflictKey(worktrees: readonly string[]): string {
  return [...worktrees].sort().join('\n')
}

/**
 * Which conflict threads to open and close this round. A group with its thread open keeps it.
 * A thread closed by hand is an acknowledgement of those commits: the same commits stay quiet,
 * a new commit (or a changed working state) in any of the lanes opens a new thread. A thread the
 * daemon closed, or one gone from the replica, is followed by a new one when the collision is back.
 */
export function planConflictThreads(
  groups: readonly ConflictGroup[],
  known: readonly KnownConflict[],
): ConflictThreadPlan {
  const byKey = new Map(known.map((entry) => [entry.key, entry]))
  const current = new Set<string>()
  const open: ConflictGroup[] = []
  for (const group of groups) {
    const key = conflictKey(group.worktrees)
    current.add(key)
    const entry = byKey.get(key)
    if (entry === undefined || entry.threadOpen === null) {
      open.push(group)
      continue
    }
    if (entry.threadOpen) continue
    const acknowledged = !entry.closedByReady && entry.commits === group.commits.join('\n')
    if (!acknowledged) open.push(group)
  }
  const close = known.filter((entry) => entry.threadOpen === true && !current.has(entry.key))
  return { open, close }
}

/** A thread title's limit (room/services/threads.ts refuses longer ones). */
export const maxConflictTitleChars = 200

/** The thread's title: the one path (its end, when too long for a title), or how many. */
export function conflictTitle(paths: readonly string[]): string {
  if (paths.length !== 1) return `Merge conflict: ${paths.length} files`
  const title = `Merge conflict: ${paths[0]}`
  if (title.length <= maxConflictTitleChars) return title
  const prefix = 'Merge conflict: …'
  return prefix + title.slice(title.length - (maxConflictTitleChars - prefix.length))
}

/** The one post into a new conflict thread, tagging the worktrees. */
export function conflictPostText(targets: readonly string[], paths: readonly string[]): string {
  // Three paths at most, each cut to its last 300 characters: a post is at most 4,000.
  const shown = paths.slice(0, 3).map((path) => `\`${path.length > 300 ? `…${path.slice(-299)}` : path}\``)
  const more = paths.length > 3 ? ` and ${paths.length - 3} more` : ''
  return (
    `${targets.map((target) => `#${target}`).join(' ')} these worktrees conflict on ${shown.join(', ')}${more}. ` +
    'Git reports the collision today; agree who rebases and in what order before the merge.'
  )
}
