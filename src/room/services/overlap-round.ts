import { worktreeRoots } from '../../git/git-layout.ts'
import { worktreeHeads } from '../../git/worktree-heads.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Random } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import { crossMachinePicture } from '../core/cross-machine-overlap.ts'
import { conflictGroups, overlapPicture } from '../core/overlap-picture.ts'
import { type OverlapLooker, recordOverlapLook, replaceOverlaps } from '../store/overlap-table.ts'
import { openHumanLoopOpeners } from '../store/thread-table.ts'
import { readWorktreeStates } from '../store/worktree-state-table.ts'
import { type ConflictThreadChanges, syncConflictThreads } from './conflict-threads.ts'
import { loadDirectory } from './directory.ts'
import { laneAnswers, resolveTarget } from './ready.ts'
import { type BaseChangesMemo, localWorktreeStates, publishWorktreeStates } from './worktree-states.ts'

/** Time between the end of one of the daemon's rounds and the start of the next. */
export const overlapIntervalMs = 15_000

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
  /** Base changes of earlier rounds (the daemon keeps one across rounds). */
  readonly baseMemo?: BaseChangesMemo | undefined
  /**
   * Who runs it: the daemon (the default), or a read command that found no daemon running
   * (D350). A read's round shares nothing with the team (no `room.worktree` states: that is the
   * daemon's to do when it runs), so it reads the local worktrees' base changes only when another
   * machine's states are here to predict against.
   */
  readonly by?: OverlapLooker | undefined
}

export interface OverlapRoundResult {
  readonly target: string
  readonly lanes: number
  readonly rows: number
  readonly conflicted: number
  /** Merges git ran (the rest came from the memo). */
  readonly merged: number
  /** `room.worktree` records queued for the team (this machine's states that changed). */
  readonly published: number
  /** Rows of the picture against other machines' worktrees (predicted from their states). */
  readonly remoteRows: number
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
  const directory = () =>
    loadDirectory(db, {
      machine: input.machine,
      worktrees: worktreeRoots({ worktreeRoot: input.cwd, commonDir: input.commonDir }),
      blocked: openHumanLoopOpeners(db),
    })
  const targets = new Map(
    directory()
      .worktrees.filter((worktree) => worktree.machine === input.machine)
      .map((worktree) => [worktree.path, worktree.target]),
  )
  const by = input.by ?? 'daemon'
  const others = readWorktreeStates(db).filter((state) => state.machine !== input.machine)
  const headOf = new Map(worktreeHeads(input.cwd).map((head) => [head.path, head.head]))
  const local =
    by === 'read' && others.length === 0
      ? []
      : await localWorktreeStates(
          answers.lanes.map((lane) => ({ lane, head: headOf.get(lane.worktree) ?? null })),
          {
            cwd: input.cwd,
            machine: input.machine,
            main: target.commit,
            targets,
            concurrency: 4,
            memo: input.baseMemo,
          },
          now,
        )
  const published =
    by === 'daemon'
      ? publishWorktreeStates(
          db,
          input.machine,
          input.human,
          local.map((entry) => entry.state),
          now,
        )
      : { queued: 0 }
  const remote = crossMachinePicture(input.machine, local, others, now)
  const rows = [...overlapPicture(answers.lanes, answers.pairAnswers, now), ...remote.rows]
  const groups = [...conflictGroups(answers.lanes, answers.pairAnswers), ...remote.groups]
  // The picture, its time and the threads in one write: two rounds at once (a daemon starting
  // while a read looks, two reads) take turns, and the second plans its threads from the first's,
  // so no set gets two threads.
  const threads = db
    .transaction(() => {
      replaceOverlaps(db, rows)
      recordOverlapLook(db, { lookedAt: now, by })
      return syncConflictThreads(db, groups, {
        clock,
        random: input.random,
        directory: directory(),
        human: input.human,
      })
    })
    .immediate()
  return {
    target: target.name,
    lanes: answers.lanes.length,
    rows: rows.length,
    conflicted: rows.filter((row) => row.conflicted).length,
    merged: answers.merged,
    published: published.queued,
    remoteRows: remote.rows.length,
    threads,
  }
}
