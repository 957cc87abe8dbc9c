import { runningDaemon } from '../../config/daemon-discovery.ts'
import { daemonFile } from '../../config/data-paths.ts'
import { loadMachineId } from '../../config/machine-id.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { describeAge } from '../../memory/core/brief-lines.ts'
import type { Random } from '../../shared/random.ts'
import { isSangamError } from '../../shared/sangam-error.ts'
import { asStoreBusy } from '../../store/busy-error.ts'
import type { CollisionsSeen } from '../protocol/board-view.ts'
import { type OverlapLooker, readOverlapLook } from '../store/overlap-table.ts'
import { overlapIntervalMs, overlapRound } from './overlap-round.ts'

export type { CollisionsSeen } from '../protocol/board-view.ts'

/**
 * The most worktrees a read looks at on its own. A look reads every worktree's working state
 * (a few git processes each; the merges come from the memo once seen), so a read stays quick up
 * to here and says so beyond it rather than taking seconds (D351, bench/room-board.ts).
 */
export const maxReadWorktrees = 12

export interface CollisionsOnReadInput {
  readonly random: Random
}

/**
 * Before a read shows collisions: when no daemon runs on this machine and nobody looked in the
 * last round's interval, look now, as `sangam up`'s round would (the same `overlapRound`: the
 * picture, and conflict threads opened or closed; nothing of this machine's state is shared). The
 * work is bounded by `maxReadWorktrees` and memoized twice: merges by commit (`ready`'s memo), and
 * the whole look for 15 s (a `board` then `threads` then `alerts` look once). A read that does not
 * look says so, with when someone last did. Never throws for a look that failed: the read still
 * answers what the store holds.
 */
export async function collisionsOnRead(
  project: ProjectContext,
  input: CollisionsOnReadInput,
): Promise<CollisionsSeen> {
  const { db, clock, repo } = project
  const now = clock.now()
  const last = readOverlapLook(db)
  const seen = (source: CollisionsSeen['source'], note: string | null): CollisionsSeen => ({
    source,
    lookedAt: last?.lookedAt ?? null,
    lookedBy: last?.by ?? null,
    note,
  })
  const daemon = runningDaemon(daemonFile(project.env.sangamHome, repo.projectId))
  if (daemon !== null) {
    if (last === null)
      return seen(
        'daemon',
        `sangam up (pid ${daemon.pid}) has not finished its first look for collisions yet`,
      )
    // A daemon whose rounds keep failing (no main branch, git mid-rebase) logs why.
    const stale = now - last.lookedAt > 4 * overlapIntervalMs
    return seen(
      'daemon',
      stale
        ? `sangam up (pid ${daemon.pid}) last looked for collisions ${describeAge(last.lookedAt, now)}; its log says why not since`
        : null,
    )
  }
  if (last !== null && now - last.lookedAt >= 0 && now - last.lookedAt < overlapIntervalMs)
    return seen('recent', null)
  const lastWords = `${lastLook(last, now)}; sangam up looks every ${overlapIntervalMs / 1000} s, sangam ready looks now`
  if (repo.worktrees.length > maxReadWorktrees) {
    return seen(
      'not-looked',
      `no daemon runs and this read did not look for collisions: ${repo.worktrees.length} worktrees are more than a read looks at (${maxReadWorktrees}); ${lastWords}`,
    )
  }
  try {
    await overlapRound({
      db,
      cwd: repo.root,
      clock,
      random: input.random,
      human: project.human,
      commonDir: repo.commonDir,
      machine: loadMachineId(project.env.sangamHome, input.random),
      by: 'read',
    })
  } catch (caught) {
    // No main branch, git mid-rebase, the store busy past the read's budget: what the store holds
    // is still the answer, said to be as old as it is.
    const error = asStoreBusy(caught)
    if (!isSangamError(error)) throw error
    return seen(
      'not-looked',
      `no daemon runs and looking for collisions failed: ${error.message}; ${lastWords}`,
    )
  }
  return { source: 'looked', lookedAt: now, lookedBy: 'read', note: null }
}

function lastLook(
  last: { readonly lookedAt: number; readonly by: OverlapLooker } | null,
  now: number,
): string {
  if (last === null) return 'nobody has looked yet'
  const who = last.by === 'daemon' ? 'sangam up' : 'a read'
  return `the last look was ${describeAge(last.lookedAt, now)}, by ${who}`
}

/** The line a read's text ends with when the collisions it shows may be out of date; none when they are current. */
export function collisionsLines(collisions: CollisionsSeen): string[] {
  return collisions.note === null ? [] : [`Collisions: ${collisions.note}`]
}
