import { findMainBranch } from '../../git/branch.ts'
import { gitOutputOrNull } from '../../git/git.ts'
import { mergeTrees } from '../../git/merge-tree.ts'
import { touchedPaths } from '../../git/touched-paths.ts'
import { type WorkingStateMemo, workingStates } from '../../git/working-state.ts'
import { worktreeHeads } from '../../git/worktree-heads.ts'
import { mapLimit } from '../../shared/map-limit.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import {
  type MergeAnswer,
  nominatedPairs,
  pairKey,
  type ReadyLane,
  type ReadyVerdict,
  readyVerdict,
} from '../core/ready-verdict.ts'
import {
  type MemoAnswer,
  readKeptStates,
  readMemo,
  writeKeptStates,
  writeMemo,
} from '../store/ready-memo-table.ts'
import { readMachineWorktreeStates } from '../store/worktree-state-table.ts'
import type { DaemonRound, WorktreeStatesSeen } from './daemon-round.ts'

/** The branch (or commit) lanes would land on. */
export interface ReadyTarget {
  readonly name: string
  readonly commit: string
}

/** Git's answers about every lane: what the verdict and the overlap picture are made of. */
export interface LaneAnswers {
  readonly into: ReadyTarget
  readonly lanes: readonly ReadyLane[]
  /** Lane i merged into the target; undefined when the lane is skipped. */
  readonly intoAnswers: readonly (MergeAnswer | undefined)[]
  /** Every nominated pair merged, by `pairKey`. */
  readonly pairAnswers: ReadonlyMap<string, MergeAnswer>
  /** Merges git ran this time (the rest came from the memo). */
  readonly merged: number
  /** Where the worktrees' working states came from. */
  readonly states: WorktreeStatesSeen
}

/** How far a run is: `done` of `total` merges git has to run (memo hits are not counted). */
export type ReadyProgress = (done: number, total: number) => void

export interface LaneOptions {
  /** Leave out the worktrees that have the target checked out (`ready`: they are the target). */
  readonly excludeTarget: boolean
  readonly now: number
  readonly onProgress?: ReadyProgress | undefined
  /**
   * Read the worktrees the daemon's round found clean, at the HEAD they still have, from its rows
   * rather than from git (D432); the rest are read as without it. Absent: every worktree is read.
   */
  readonly daemon?: DaemonRound | null | undefined
}

/** Merges asked of git per `merge-tree --stdin` run, so progress moves during a long cold run. */
const mergeChunk = 48

/**
 * Git processes at once: a round is mostly process start-up and small reads, so a few side by
 * side use two cores well without crowding the agents working on the same machine.
 */
const gitConcurrency = 4

/**
 * The target named by `into` (a branch, a remote branch or any commit), or the project's main
 * branch; refused with the reason when there is none, before anything runs.
 */
export function resolveTarget(cwd: string, into: string | null): ReadyTarget {
  if (into === null) {
    const main = findMainBranch(cwd)
    if (main === null) {
      throw new SangamError(
        ErrorCode.InvalidInput,
        'no main, master or trunk branch here: name the target with --into <branch>',
      )
    }
    return main
  }
  const name = into.trim()
  const commit =
    name === '' || name.startsWith('-')
      ? null
      : gitOutputOrNull(['rev-parse', '--verify', '--quiet', `${name}^{commit}`], cwd)
  if (commit === null) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `--into ${JSON.stringify(into)} names no branch or commit here (git branch lists them)`,
    )
  }
  return { name, commit }
}

/**
 * Every worktree's lane and git's answers: its working state as a commit (uncommitted work
 * counts, nothing in the worktree changes), the paths it touches since it left the target, its
 * merge into the target and its merge with every lane it shares a touched path with. Answers
 * about pairs of commits come from the memo when they are there and go into it when git gave
 * them (an error is not kept: it may be git's state, not the commits).
 */
export async function laneAnswers(
  db: Db,
  cwd: string,
  into: ReadyTarget,
  options: LaneOptions,
): Promise<LaneAnswers> {
  const { now } = options
  const heads = worktreeHeads(cwd).filter(
    (head) => !head.bare && !(options.excludeTarget && head.branch !== null && head.branch === into.name),
  )
  const readable = heads.flatMap((head) =>
    head.missing || head.head === null ? [] : [{ path: head.path, head: head.head }],
  )
  // A worktree the daemon's round found clean at the HEAD it still has is that HEAD: the merges
  // of its commit are in the memo the round filled. HEADs come from files (no git).
  const cleanAt = new Map(
    options.daemon == null
      ? []
      : readMachineWorktreeStates(db, options.daemon.machine).flatMap((row) =>
          row.status === 'present' && row.uncommitted === 0 && row.head !== null
            ? [[row.path, row.head]]
            : [],
        ),
  )
  const known = readable.filter((worktree) => cleanAt.get(worktree.path) === worktree.head)
  const toRead = readable.filter((worktree) => cleanAt.get(worktree.path) !== worktree.head)
  // A dirty worktree as it stood when a reading (the daemon's round, or an earlier run) made its
  // state: that state, without the temporary index (D422).
  let keptHits = 0
  const keptStates: WorkingStateMemo = {
    read: (keys) => {
      const found = readKeptStates(db, keys, now)
      keptHits = found.size
      return found
    },
    write: (entries) => writeKeptStates(db, entries, now),
  }
  const read = await workingStates(cwd, toRead, gitConcurrency, keptStates)
  const stateOf = new Map([
    ...known.map((worktree) => [worktree.path, { commit: worktree.head, uncommitted: [] }] as const),
    ...toRead.map((worktree, i) => [worktree.path, read[i]] as const),
  ])
  const states: WorktreeStatesSeen =
    options.daemon == null || known.length + keptHits === 0
      ? { source: 'git', at: null, ageMs: 0 }
      : { source: 'daemon', at: options.daemon.at, ageMs: Math.max(0, now - options.daemon.at) }
  const lanes: ReadyLane[] = heads.map((head): ReadyLane => {
    const base = { worktree: head.path, branch: head.branch }
    const state = stateOf.get(head.path)
    // Deleted from disk, or while its state was being read.
    if (head.missing || state === null) {
      return { ...base, commit: null, uncommitted: null, touched: [], skipped: 'missing' }
    }
    if (head.head === null || state === undefined) {
      return { ...base, commit: null, uncommitted: null, touched: [], skipped: 'no-commit' }
    }
    return {
      ...base,
      commit: state.commit,
      uncommitted: state.uncommitted.length,
      touched: [],
      skipped: null,
    }
  })

  // What each lane touches since it left the target.
  const live = lanes.flatMap((lane, index) =>
    lane.commit === null ? [] : [{ lane, commit: lane.commit, index }],
  )
  const touchedMemo = readMemo(
    db,
    'touched',
    live.map(({ commit }) => [into.commit, commit] as const),
    now,
  )
  const touchedFresh: { left: string; right: string; answer: MemoAnswer }[] = []
  await mapLimit(live, gitConcurrency, async ({ lane, commit, index }) => {
    let paths = touchedMemo.get(`${into.commit}\n${commit}`)?.paths ?? null
    if (paths === null) {
      paths = await touchedPaths(cwd, into.commit, commit)
      if (paths !== null)
        touchedFresh.push({ left: into.commit, right: commit, answer: { clean: true, paths } })
    }
    lanes[index] =
      paths === null ? { ...lane, touched: [], skipped: 'unrelated' } : { ...lane, touched: paths }
  })

  // The merges: each lane into the target, then every nominated pair.
  const wanted: { key: string; pair: readonly [string, string] }[] = []
  lanes.forEach((lane, index) => {
    if (lane.skipped === null && lane.commit !== null) {
      wanted.push({ key: `into:${index}`, pair: sorted(into.commit, lane.commit) })
    }
  })
  for (const [a, b] of nominatedPairs(lanes)) {
    wanted.push({ key: pairKey(a, b), pair: sorted(lanes[a]?.commit ?? '', lanes[b]?.commit ?? '') })
  }
  const memo = readMemo(
    db,
    'merge',
    wanted.map((entry) => entry.pair),
    now,
  )
  const missing = new Map<string, readonly [string, string]>()
  for (const { pair } of wanted) {
    const id = `${pair[0]}\n${pair[1]}`
    if (!memo.has(id)) missing.set(id, pair)
  }
  const toMerge = [...missing.values()]
  const chunks: (readonly (readonly [string, string])[])[] = []
  for (let start = 0; start < toMerge.length; start += mergeChunk)
    chunks.push(toMerge.slice(start, start + mergeChunk))
  const fresh = new Map<string, MergeAnswer>()
  let done = 0
  await mapLimit(chunks, 2, async (chunk) => {
    const results = await mergeTrees(cwd, chunk)
    results.forEach((answer, i) => {
      const pair = chunk[i] as readonly [string, string]
      fresh.set(`${pair[0]}\n${pair[1]}`, answer)
    })
    done += chunk.length
    options.onProgress?.(done, toMerge.length)
  })
  const answers = new Map<string, MergeAnswer>()
  for (const { key, pair } of wanted) {
    const id = `${pair[0]}\n${pair[1]}`
    const hit = memo.get(id)
    const answer = hit === undefined ? fresh.get(id) : { clean: hit.clean, conflicts: hit.paths, error: null }
    if (answer !== undefined) answers.set(key, answer)
  }
  writeMemo(db, 'touched', touchedFresh, now)
  writeMemo(
    db,
    'merge',
    [...fresh].flatMap(([id, answer]) => {
      if (answer.error !== null) return []
      const [left = '', right = ''] = id.split('\n')
      return [{ left, right, answer: { clean: answer.clean, paths: answer.conflicts } }]
    }),
    now,
  )

  const pairAnswers = new Map<string, MergeAnswer>()
  for (const [key, answer] of answers) if (!key.startsWith('into:')) pairAnswers.set(key, answer)
  return {
    into,
    lanes,
    intoAnswers: lanes.map((_, index) => answers.get(`into:${index}`)),
    pairAnswers,
    merged: toMerge.length,
    states,
  }
}

/** `ready`: the verdict for every lane but the target's own. */
export async function ready(
  db: Db,
  cwd: string,
  into: string | null,
  options: {
    readonly now: number
    readonly onProgress?: ReadyProgress | undefined
    readonly daemon?: DaemonRound | null | undefined
  },
): Promise<ReadyVerdict & { readonly merged: number; readonly states: WorktreeStatesSeen }> {
  const target = resolveTarget(cwd, into)
  const answers = await laneAnswers(db, cwd, target, { excludeTarget: true, ...options })
  return {
    ...readyVerdict(target.name, answers.lanes, answers.intoAnswers, answers.pairAnswers),
    merged: answers.merged,
    states: answers.states,
  }
}

function sorted(a: string, b: string): readonly [string, string] {
  return a < b ? [a, b] : [b, a]
}
