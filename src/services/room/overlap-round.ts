import { conflictGroups, overlapPicture } from '../../core/room/overlap-picture.ts'
import { worktreeRoots } from '../../git/git-layout.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Random } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import { replaceOverlaps } from '../../store/room/overlap-table.ts'
import { openHumanLoopOpeners } from '../../store/room/thread-table.ts'
import { type ConflictThreadChanges, syncConflictThreads } from './conflict-threads.ts'
import { loadDirectory } from './directory.ts'
import { laneAnswers, resolveTarget } from './ready.ts'

export interface OverlapRoundInput {
  readonly db: Db
  /** Any worktree of the checkout: git runs from here. */
  readonly cwd: string
  readonly clock: Clock
  readonly random: Random
  readonly human: string
  /** The checkout's common git dir: its worktrees (and their `#targets`) are listed afresh each round. */
  readonly commonDir: string
  /** This machine's id (config/machine-id.ts). */
  readonly machine: string
}

export interface OverlapRoundResult {
  readonly target: string
  readonly lanes: number
  readonly rows: number
  readonly conflicted: number
  /** Merges git ran (the rest came from the memo). */
  readonly merged: number
  readonly threads: ConflictThreadChanges
}

/**
 * One round of the daemon's overlap picture: every worktree's lane (the target's own included:
 * its uncommitted work collides like anyone's), the picture written whole in one transaction
 * (`replaceOverlaps`), then the conflict threads brought in line with it.
 */
export async function overlapRound(input: OverlapRoundInput): Promise<OverlapRoundResult> {
  const { db, clock } = input
  const now = clock.now()
  const target = resolveTarget(input.cwd, null)
  const answers = await laneAnswers(db, input.cwd, target, { excludeTarget: false, now })
  const rows = overlapPicture(answers.lanes, answers.pairAnswers, now)
  db.transaction(() => replaceOverlaps(db, rows)).immediate()
  const threads = syncConflictThreads(db, conflictGroups(answers.lanes, answers.pairAnswers), {
    clock,
    random: input.random,
    directory: loadDirectory(db, {
      machine: input.machine,
      worktrees: worktreeRoots({ worktreeRoot: input.cwd, commonDir: input.commonDir }),
      blocked: openHumanLoopOpeners(db),
    }),
    human: input.human,
  })
  return {
    target: target.name,
    lanes: answers.lanes.length,
    rows: rows.length,
    conflicted: rows.filter((row) => row.conflicted).length,
    merged: answers.merged,
    threads,
  }
}
