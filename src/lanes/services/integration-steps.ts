import { gitOutput } from '../../git/git.ts'
import { commitFromFiles } from '../../git/ref-files.ts'
import { isLockStale } from '../core/sync-ladder.ts'
import { describeDirt, onlyStaged } from '../core/worktree-dirt.ts'
import { beginIntegration, type IntegrationJournal, type LaneRow, updateLane } from '../store/lane-table.ts'
import type { LockHolder } from './integration-lock.ts'
import { commitOfIndex, dirtyFiles, unsafeGitState, worktreeOfBranch } from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import type { LaneWorld } from './lane-world.ts'
import { restoreOwnWork } from './normalise-lanes.ts'

/**
 * The steps every publishing rung of the sync ladder shares: the refusals before the lock, the lock
 * taken with a journal, the project's check, main moved, and the lane given back or finished.
 */

/** Main's commit as it is now. */
export function mainCommit(world: LaneWorld): string {
  const ref = `refs/heads/${world.mainBranch}`
  const fromFiles = commitFromFiles(world.root, ref)
  return typeof fromFiles === 'string' ? fromFiles : gitOutput(['rev-parse', `${ref}^{commit}`], world.root)
}

/** The refusal while another lane holds the integration lock (stale or not: what to do differs). */
export function busy(world: LaneWorld, lane: LaneRow, holder: LockHolder | null) {
  const now = world.clock.now()
  const owner = holder === null ? 'another lane' : `lane ${holder.lane} (${holder.owner})`
  const what = holder?.task ? `its semantic task ${holder.task}` : 'a publish'
  const stale =
    holder !== null && isLockStale(holder.heartbeatAt, now, world.settings.lockStaleMinutes * 60_000)
  const age = holder === null ? '' : `, ${Math.round((now - holder.since) / 60_000)} min ago`
  return laneRefused(
    'integration-busy',
    `integration busy: ${owner} holds the integration lock for ${what}${age}`,
    stale
      ? `the lock has been silent for over ${world.settings.lockStaleMinutes} min: ask ${holder?.owner}, or take it over with sangam sync --takeover --reason "…" (their work is saved under refs/sangam/takeovers/ first)`
      : `keep lane ${lane.name} as it is and run sangam sync again once ${holder?.lane ?? 'it'} has published; nothing was moved`,
  )
}

/** Refuses while the worktree that has main checked out holds uncommitted files or a git operation. */
export function requireMainPublishable(world: LaneWorld): void {
  const checkedOut = worktreeOfBranch(world.root, world.mainBranch)
  if (checkedOut === null) return
  const unsafe = unsafeGitState(checkedOut)
  if (unsafe !== null)
    throw laneRefused(
      'main-dirty',
      `the ${world.mainBranch} worktree ${checkedOut} has an unfinished git operation (${unsafe})`,
      `finish or abort it there (git merge --abort, git rebase --abort), then run sangam sync again`,
    )
  const files = dirtyFiles(checkedOut)
  if (files.length === 0) return
  const what = `the ${world.mainBranch} worktree ${checkedOut} has uncommitted or untracked files (${describeDirt(files)}); publishing would have to overwrite them`
  // Staged changes that are exactly another commit's files: a move of main the guard refused
  // after git had already rewritten the worktree (an older guard, or one that could not undo it).
  const left = onlyStaged(files) ? commitOfIndex(checkedOut) : null
  if (left !== null)
    throw laneRefused(
      'main-dirty',
      `${what}. The staged changes are exactly commit ${left.slice(0, 12)}'s files: what a \`git reset --hard\`, \`merge\` or \`checkout\` of ${world.mainBranch} leaves when the guard refuses to move ${world.mainBranch} after git rewrote the files`,
      `put the worktree back as ${world.mainBranch} is: git -C ${checkedOut} reset --hard (it drops only those staged changes, which ${left.slice(0, 12)} still holds; untracked files stay), then run sangam sync again; nothing was moved`,
    )
  throw laneRefused(
    'main-dirty',
    what,
    `commit them in a lane, or stash or remove them in ${checkedOut}, then run sangam sync again; nothing was moved`,
  )
}

export function requireLaneSafe(lane: LaneRow): void {
  const unsafe = unsafeGitState(lane.worktree)
  if (unsafe !== null)
    throw laneRefused(
      'lane-unsafe-state',
      `lane ${lane.name} has an unfinished git operation (${unsafe})`,
      'finish or abort it in the lane (git merge --abort, git rebase --abort), then run sangam sync again',
    )
}

/**
 * Begins an integration: the lane marked integrating (with its journal and our pid) before the
 * lock is asked for, so a crash at any point leaves a lane the normalisation can find.
 */
export async function begin(
  world: LaneWorld,
  lane: LaneRow,
  journal: IntegrationJournal,
): Promise<LockHolder> {
  if (!beginIntegration(world.db, lane.name, journal.resume, journal, world.pid, world.clock.now()))
    throw laneRefused(
      'sync-in-progress',
      `another sangam sync of lane ${lane.name} began meanwhile`,
      'wait for it to finish, then run sangam sync again',
    )
  const answer = await world.lock.acquire({ lane: lane.name, owner: lane.owner, task: journal.task })
  if (answer.granted || answer.holder.lane === lane.name) {
    world.fault('locked')
    return answer.holder
  }
  updateLane(world.db, lane.name, { state: journal.resume, journal: null, pid: null }, world.clock.now())
  throw busy(world, lane, answer.holder)
}

function setJournal(world: LaneWorld, lane: LaneRow, journal: IntegrationJournal): void {
  updateLane(world.db, lane.name, { journal }, world.clock.now())
}

/** Gives the lane back as the sync found it, frees the lock, and refuses. */
export async function undo(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  journal: IntegrationJournal,
  refusal: Error,
): Promise<never> {
  restoreOwnWork(world, lane.worktree, journal.task, journal.headBefore, journal.snapshotted)
  await world.lock.release(holder)
  updateLane(world.db, lane.name, { state: 'idle', journal: null, pid: null }, world.clock.now())
  throw refusal
}

export function checkCandidate(world: LaneWorld, lane: LaneRow): Error | null {
  const command = world.settings.checkCommand
  if (command === '') return null
  const run = world.runCheck(command, lane.worktree)
  world.record('check.ran', lane.name, { command, ok: run.ok, exitCode: run.exitCode })
  if (run.ok) return null
  return laneRefused(
    'check-failed',
    `the project's check \`${command}\` failed on lane ${lane.name}'s candidate (exit ${run.exitCode ?? 'signal'}):\n${run.tail.trimEnd()}`,
    `fix it in lane ${lane.name} (run \`${command}\` there), commit, then run sangam sync again; ${world.mainBranch} was not moved`,
  )
}

/**
 * Moves main (under the lock) and records the lane as built on it. A publisher that refuses (the
 * team remote's main moved, the remote unreachable) moved nothing: the lane is given back as the
 * sync found it and the lock freed, as for any other refusal.
 */
export async function publish(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  refused: (error: Error) => Promise<never>,
  journal: IntegrationJournal,
  from: string,
  to: string,
): Promise<void> {
  setJournal(world, lane, { ...journal, publishFrom: from, publishTo: to })
  world.fault('before-publish')
  try {
    await world.publisher.publish({ from, to, token: holder.token })
  } catch (error) {
    if (mainCommit(world) !== from) throw error
    await refused(error as Error)
  }
  world.fault('published')
}

export async function finish(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  base: string,
): Promise<void> {
  await world.lock.release(holder)
  world.fault('released')
  updateLane(
    world.db,
    lane.name,
    { state: 'idle', task: null, base, journal: null, pid: null },
    world.clock.now(),
  )
}

/**
 * The project's check on the candidate, then main moved to it and the lane finished on it; a
 * refusal on the way gives the lane back as the sync found it.
 */
export async function checkAndPublish(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  journal: IntegrationJournal,
  move: { readonly from: string; readonly to: string },
): Promise<void> {
  const failed = checkCandidate(world, lane)
  if (failed !== null) await undo(world, lane, holder, journal, failed)
  const giveBack = (error: Error) => undo(world, lane, holder, journal, error)
  await publish(world, lane, holder, giveBack, journal, move.from, move.to)
  await finish(world, lane, holder, move.to)
}

/**
 * The facts a sync read at its start: main, the lane's HEAD, whether it has uncommitted work,
 * sangam's own changed files there (a snapshot leaves them out), and main's merge base with HEAD.
 */
export interface SyncStart {
  readonly main: string
  readonly head: string
  readonly dirty: boolean
  readonly own: readonly string[]
  /** null when main and the lane share no history. */
  readonly base: string | null
}
