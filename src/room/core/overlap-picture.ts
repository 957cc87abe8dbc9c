import { type MergeAnswer, pairKey, type ReadyLane } from './ready-verdict.ts'

/** One row of the overlap picture: `path` changes in `worktree` and in `otherWorktree`. */
export interface OverlapEntry {
  readonly worktree: string
  readonly path: string
  readonly otherWorktree: string
  readonly otherBranch: string | null
  /** Merging the two lanes would conflict on this path. */
  readonly conflicted: boolean
  readonly computedAt: number
}

/** A set of worktrees whose lanes conflict on the same paths: one conflict thread each. */
export interface ConflictGroup {
  /** Sorted worktree paths (two or more). */
  readonly worktrees: readonly string[]
  /** Sorted paths they conflict on. */
  readonly paths: readonly string[]
  /** The lanes' commits (working states), sorted: an acknowledgement holds for exactly these. */
  readonly commits: readonly string[]
}

/**
 * The daemon's overlap picture from the nominated pairs: for every pair and every path both
 * touch, a row each way, conflicted when the pair's merge conflicts on it. A path the merge
 * conflicts on that one side did not list (a rename) is a row too.
 */
export function overlapPicture(
  lanes: readonly ReadyLane[],
  pairAnswers: ReadonlyMap<string, MergeAnswer>,
  computedAt: number,
): OverlapEntry[] {
  const rows: OverlapEntry[] = []
  for (const [key, answer] of pairAnswers) {
    const [a, b] = key.split(':').map(Number) as [number, number]
    const left = lanes[a]
    const right = lanes[b]
    if (left === undefined || right === undefined) continue
    const theirs = new Set(right.touched)
    const conflicted = new Set(answer.error === null ? answer.conflicts : [])
    const shared = new Set([...left.touched.filter((path) => theirs.has(path)), ...conflicted])
    for (const path of [...shared].sort()) {
      const isConflicted = conflicted.has(path)
      rows.push({
        worktree: left.worktree,
        path,
        otherWorktree: right.worktree,
        otherBranch: right.branch,
        conflicted: isConflicted,
        computedAt,
      })
      rows.push({
        worktree: right.worktree,
        path,
        otherWorktree: left.worktree,
        otherBranch: left.branch,
        conflicted: isConflicted,
        computedAt,
      })
    }
  }
  return rows.sort(
    (x, y) =>
      compare(x.worktree, y.worktree) || compare(x.path, y.path) || compare(x.otherWorktree, y.otherWorktree),
  )
}

/**
 * The conflict threads the picture calls for: each conflicted path goes to the set of worktrees
 * conflicting on it (every pair that conflicts there), and paths with the same set share a group.
 */
export function conflictGroups(
  lanes: readonly ReadyLane[],
  pairAnswers: ReadonlyMap<string, MergeAnswer>,
): ConflictGroup[] {
  const byPath = new Map<string, Set<number>>()
  for (const [key, answer] of pairAnswers) {
    if (answer.error !== null || answer.clean) continue
    const [a, b] = key.split(':').map(Number) as [number, number]
    for (const path of answer.conflicts) {
      const set = byPath.get(path) ?? new Set<number>()
      set.add(a).add(b)
      byPath.set(path, set)
    }
  }
  const groups = new Map<string, { indices: number[]; paths: string[] }>()
  for (const [path, set] of byPath) {
    const indices = [...set].sort((x, y) => x - y)
    const key = indices.map((index) => pairKey(index, index)).join(',')
    const group = groups.get(key) ?? { indices, paths: [] }
    group.paths.push(path)
    groups.set(key, group)
  }
  return [...groups.values()]
    .map((group) => ({
      worktrees: group.indices.map((index) => lanes[index]?.worktree ?? '').sort(),
      paths: group.paths.sort(),
      commits: group.indices.map((index) => lanes[index]?.commit ?? '').sort(),
    }))
    .sort((x, y) => compare(x.worktrees.join('\n'), y.worktrees.join('\n')))
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
