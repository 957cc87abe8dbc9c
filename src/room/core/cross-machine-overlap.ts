import type { BaseRange, WorktreeStatePayload } from '../protocol/worktree.ts'
import type { ConflictGroup, OverlapEntry } from './overlap-picture.ts'

/**
 * Collisions with other machines' worktrees, predicted from the states they share (`room.worktree`
 * records): their working-state commits are not here, so git cannot merge them; their changed
 * paths and the line ranges those changes replace in the base version can be compared. Pure.
 */

/** A remote worktree's name in the overlap table and in conflict keys: never an absolute path. */
export function remoteWorktreeName(machine: string, path: string): string {
  return `${machine}:${path}`
}

/**
 * Whether two changes of one file made from the same base would conflict: their replaced base
 * ranges overlap or touch (git conflicts on adjacent hunks too, with no unchanged line between).
 * null ranges (binary, or too many hunks to list) are the whole file.
 */
export function rangesCollide(a: readonly BaseRange[] | null, b: readonly BaseRange[] | null): boolean {
  if (a === null || b === null) return true
  for (const [aStart, aEnd] of a) {
    for (const [bStart, bEnd] of b) {
      if (aStart <= bEnd + 1 && bStart <= aEnd + 1) return true
    }
  }
  return false
}

/** This machine's worktree as the round saw it: its shared state and its working-state commit. */
export interface LocalWorktreeState {
  readonly state: WorktreeStatePayload
  /** Identifies the state for acknowledgements (a conflict thread closed by hand holds for it). */
  readonly commit: string
}

export interface CrossMachinePicture {
  /** Rows for this machine's worktrees (the other side named `remoteWorktreeName`). */
  readonly rows: readonly OverlapEntry[]
  /** Conflict threads this machine opens: only for remote machines whose id sorts after its own. */
  readonly groups: readonly ConflictGroup[]
}

/**
 * Every local worktree against every present remote one: a path both change collides; with the
 * same base and colliding ranges it is conflicted, with different bases it is a path collision
 * only (the ranges are of different versions). Of the two machines of a pair, only the one whose
 * id sorts first opens the conflict thread, so a collision gets one thread, not one per machine.
 */
export function crossMachinePicture(
  machine: string,
  local: readonly LocalWorktreeState[],
  remote: readonly WorktreeStatePayload[],
  computedAt: number,
): CrossMachinePicture {
  const rows: OverlapEntry[] = []
  const groups: ConflictGroup[] = []
  const others = remote.filter((state) => state.machine !== machine && state.status === 'present')
  for (const { state: mine, commit } of local) {
    if (mine.status !== 'present') continue
    const myChanges = new Map(mine.changes.map((change) => [change.path, change.ranges]))
    for (const other of others) {
      const sameBase = mine.base !== null && mine.base === other.base
      const name = remoteWorktreeName(other.machine, other.path)
      const conflicted: string[] = []
      for (const change of other.changes) {
        const ranges = myChanges.get(change.path)
        if (ranges === undefined) continue
        const isConflicted = sameBase && rangesCollide(ranges, change.ranges)
        if (isConflicted) conflicted.push(change.path)
        rows.push({
          worktree: mine.path,
          path: change.path,
          otherWorktree: name,
          otherBranch: other.branch,
          conflicted: isConflicted,
          computedAt,
        })
      }
      if (conflicted.length > 0 && machine < other.machine) {
        groups.push({
          worktrees: [mine.path, name].sort(),
          paths: conflicted.sort(),
          commits: [commit, `${name}@${other.updatedAt}`].sort(),
        })
      }
    }
  }
  return {
    rows: rows.sort(
      (x, y) =>
        compare(x.worktree, y.worktree) ||
        compare(x.path, y.path) ||
        compare(x.otherWorktree, y.otherWorktree),
    ),
    groups,
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
