import type { ReadyBranch, ReadyCollision, ReadySkip, ReadyVerdict } from '../protocol/ready-view.ts'

/**
 * `ready`: would each lane merge into the target, and which lanes would conflict with each other
 * (latent conflicts: each merges on its own, the second to land would not). Pure: git's answers
 * come in as data (room/services/ready.ts asks for them).
 */

/** One worktree's lane as git showed it: its working state (uncommitted work counts) and what it touches. */
export interface ReadyLane {
  readonly worktree: string
  /** null when detached. */
  readonly branch: string | null
  /** The working-state commit (HEAD when nothing is uncommitted); null when skipped. */
  readonly commit: string | null
  /** Paths uncommitted; null when unknown (skipped). */
  readonly uncommitted: number | null
  /** Paths the lane changes since it left the target (committed or not); empty when skipped. */
  readonly touched: readonly string[]
  readonly skipped: ReadySkip | null
}

/** A merge answer: clean or the conflicted paths; `error` when git could not merge at all. */
export interface MergeAnswer {
  readonly clean: boolean
  readonly conflicts: readonly string[]
  readonly error: string | null
}

export type { ReadyBranch, ReadyCollision, ReadySkip, ReadyVerdict } from '../protocol/ready-view.ts'

/**
 * The pairs of lanes worth merging: those that touch a common path since they left the target.
 * Every such pair, with no cap: two lanes that share no touched path cannot conflict (a conflict
 * needs both sides to change the path since their merge base, which is at or after the target's).
 * Indices into `lanes`, lower first, in order.
 */
export function nominatedPairs(lanes: readonly ReadyLane[]): [number, number][] {
  const byPath = new Map<string, number[]>()
  lanes.forEach((lane, index) => {
    if (lane.skipped !== null) return
    for (const path of lane.touched) {
      const list = byPath.get(path)
      if (list === undefined) byPath.set(path, [index])
      else list.push(index)
    }
  })
  const pairs = new Set<number>()
  const width = lanes.length
  for (const indices of byPath.values()) {
    for (let i = 0; i < indices.length; i += 1) {
      for (let j = i + 1; j < indices.length; j += 1)
        pairs.add((indices[i] as number) * width + (indices[j] as number))
    }
  }
  return [...pairs].sort((a, b) => a - b).map((key) => [Math.floor(key / width), key % width])
}

/** The key of a pair of lanes in the answers map: their indices, lower first. */
export function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`
}

/**
 * The verdict from git's answers: `intoAnswers[i]` is lane i merged into the target (undefined
 * when skipped), `pairAnswers` the nominated pairs by `pairKey`. Collisions are recorded both
 * ways. Sorted: conflicted first, then latent, then clean, then skipped; by branch, then worktree.
 */
export function readyVerdict(
  into: string,
  lanes: readonly ReadyLane[],
  intoAnswers: readonly (MergeAnswer | undefined)[],
  pairAnswers: ReadonlyMap<string, MergeAnswer>,
): ReadyVerdict {
  let complete = true
  const collisions = lanes.map((): ReadyCollision[] => [])
  for (const [key, answer] of pairAnswers) {
    if (answer.error !== null) {
      complete = false
      continue
    }
    if (answer.clean) continue
    const [a, b] = key.split(':').map(Number) as [number, number]
    const left = lanes[a]
    const right = lanes[b]
    if (left === undefined || right === undefined) continue
    collisions[a]?.push({ branch: right.branch, worktree: right.worktree, paths: answer.conflicts })
    collisions[b]?.push({ branch: left.branch, worktree: left.worktree, paths: answer.conflicts })
  }
  const branches: ReadyBranch[] = lanes.map((lane, index) => {
    const answer = lane.skipped === null ? intoAnswers[index] : undefined
    const skipped: ReadySkip | null =
      lane.skipped ?? (answer === undefined || answer.error !== null ? 'unrelated' : null)
    if (skipped === 'unrelated') complete = false
    const collidesWith = [...(collisions[index] ?? [])].sort(byBranch)
    return {
      branch: lane.branch,
      worktree: lane.worktree,
      mergesCleanly: skipped === null && answer !== undefined ? answer.clean : null,
      conflicts: skipped === null && answer !== undefined ? answer.conflicts : [],
      collidesWith,
      uncommitted: lane.uncommitted,
      skipped,
    }
  })
  branches.sort((a, b) => rank(a) - rank(b) || byBranch(a, b))
  return {
    into,
    complete,
    clean: branches.filter((branch) => rank(branch) === 2).length,
    latent: branches.filter((branch) => rank(branch) === 1).length,
    conflicted: branches.filter((branch) => rank(branch) === 0).length,
    pairsProbed: pairAnswers.size,
    branches,
  }
}

function rank(branch: ReadyBranch): number {
  if (branch.mergesCleanly === null) return 3
  if (!branch.mergesCleanly) return 0
  return branch.collidesWith.length > 0 ? 1 : 2
}

function byBranch(
  a: { readonly branch: string | null; readonly worktree: string },
  b: { readonly branch: string | null; readonly worktree: string },
): number {
  const left = a.branch ?? '\uffff'
  const right = b.branch ?? '\uffff'
  if (left !== right) return left < right ? -1 : 1
  return a.worktree < b.worktree ? -1 : a.worktree > b.worktree ? 1 : 0
}
