import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitOutput, gitOutputOrNull, runGit } from '../../git/git.ts'
import { mergeTrees } from '../../git/merge-tree.ts'
import { taskId } from '../core/lane-name.ts'
import { taskFileText, taskPrompt } from '../core/task-file.ts'
import {
  endLaneTask,
  type IntegrationJournal,
  insertLaneTask,
  type LaneRow,
  updateLane,
} from '../store/lane-table.ts'
import type { LockHolder } from './integration-lock.ts'
import {
  begin,
  checkAndPublish,
  requireLaneSafe,
  requireMainPublishable,
  type SyncStart,
  undo,
} from './integration-steps.ts'
import {
  commitTree,
  isAncestor,
  resetHard,
  snapshotCommit,
  unsafeGitState,
  worktreeState,
  writeRefs,
} from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import { type LaneWorld, laneTaskFolder } from './lane-world.ts'
import { baseRef, snapshotRef } from './recovery-refs.ts'
import type { SyncAnswer, SyncResult } from './sync-result.ts'

export async function mergeOrStartTask(
  world: LaneWorld,
  lane: LaneRow,
  start: SyncStart,
  result: SyncAnswer,
): Promise<SyncResult> {
  const { main, dirty } = start
  requireMainPublishable(world)
  requireLaneSafe(lane)
  const task = taskId(lane.name, world.clock.now())
  const journal: IntegrationJournal = {
    kind: 'merge',
    resume: 'idle',
    headBefore: start.head,
    snapshotted: dirty,
    task,
    publishFrom: null,
    publishTo: null,
  }
  const holder = await begin(world, lane, journal)
  const message = `sangam snapshot: ${lane.name} ${task}`
  const snapshot = dirty ? snapshotCommit(lane.worktree, start.head, message, start.own) : start.head
  // Asked of git without touching the worktree, so a merge that conflicts is never begun and
  // never undone, and a clean one is committed from the tree git wrote (no `git merge` to run).
  // A git before 2.38 has no `merge-tree --write-tree`: then `git merge` answers.
  const trial = await mergeTrees(world.root, [[snapshot, main]]).then(
    ([answer]) => answer ?? null,
    () => null,
  )
  const merged =
    trial?.clean === true && trial.tree !== null
      ? commitTree(lane.worktree, trial.tree, [snapshot, main], `sangam merge: ${lane.name} ${task}`)
      : null
  // The lane's HEAD moves (to the merge, else to its snapshot) in the transaction that keeps the
  // recovery refs; its files follow a clean merge after (a crash between leaves HEAD past the
  // snapshot, which the restart normalisation puts back).
  const head = merged ?? snapshot
  writeRefs(
    lane.worktree,
    [
      ...(head === start.head ? [] : [['HEAD', head, start.head] as const]),
      [snapshotRef(task), snapshot],
      [baseRef(task), main],
    ],
    message,
  )
  world.fault('snapshot')
  const merge =
    merged !== null
      ? checkOutMerge(world, lane, { task, main, snapshot, candidate: merged })
      : trial === null
        ? mergeInLane(world, lane, { task, main, snapshot })
        : null
  world.fault('merged')
  if (merge !== null && merge.candidate !== null) {
    await checkAndPublish(world, lane, holder, journal, { from: main, to: merge.candidate })
    return result('published-merge', { main: merge.candidate })
  }
  world.record('merge.fallback', lane.name, { task, reason: merge?.reason ?? 'conflict' })
  return await startTask(world, lane, holder, journal, { task, main, snapshot, base: start.base }, result)
}

type MergeOutcome = { candidate: string; reason: null } | { candidate: null; reason: string }

/**
 * The lane's files brought from its snapshot to the merge `candidate` HEAD already names (a
 * two-tree `read-tree -m -u`), and the merge checked for conflict markers and whitespace damage;
 * else why not. An ignored file in the way is overwritten, as `git merge` does. Where read-tree
 * refuses (an untracked file in the way: the snapshot holds all but sangam's own), HEAD goes back
 * to the snapshot and `git merge` answers, as it did before there was a trial.
 */
function checkOutMerge(
  world: LaneWorld,
  lane: LaneRow,
  input: { task: string; main: string; snapshot: string; candidate: string },
): MergeOutcome {
  const moved = runGit(['read-tree', '-m', '-u', input.snapshot, input.candidate], lane.worktree)
  if (moved.code !== 0) {
    writeRefs(lane.worktree, [['HEAD', input.snapshot, input.candidate]])
    return mergeInLane(world, lane, input)
  }
  if (runGit(['diff', '--check', input.main, input.candidate], world.root).code !== 0)
    return { candidate: null, reason: 'merge not clean (diff --check)' }
  return { candidate: input.candidate, reason: null }
}

/**
 * `git merge` of main into the lane (where git has no `merge-tree --write-tree`, or the trial's
 * merge could not be checked out): the merge commit when it is clean (no conflict, nothing left
 * uncommitted, both sides in it, no conflict markers or whitespace damage), else the lane given
 * back as it was before the merge and why.
 */
function mergeInLane(
  world: LaneWorld,
  lane: LaneRow,
  input: { task: string; main: string; snapshot: string },
): MergeOutcome {
  const merged = runGit(
    // --no-verify: as for its snapshot commit, sangam's own merge in the lane (never on main).
    [
      'merge',
      '-q',
      '--no-ff',
      '--no-edit',
      '--no-verify',
      '-m',
      `sangam merge: ${lane.name} ${input.task}`,
      input.main,
    ],
    lane.worktree,
  )
  const after = worktreeState(lane.worktree)
  const clean =
    merged.code === 0 &&
    unsafeGitState(lane.worktree) === null &&
    !after.dirty &&
    bothSidesIn(world, after.head, input.snapshot, input.main) &&
    runGit(['diff', '--check', input.main, after.head], world.root).code === 0
  if (clean) return { candidate: after.head, reason: null }
  if (unsafeGitState(lane.worktree) === 'MERGE_HEAD') runGit(['merge', '--abort'], lane.worktree)
  return {
    candidate: null,
    reason: merged.code !== 0 ? 'conflict' : 'merge not clean (diff --check or ancestry)',
  }
}

/**
 * Whether `snapshot` and `main` are both ancestors of the merge `candidate`: one `rev-parse` of
 * its two parents (what `merge --no-ff` makes), else the two ancestry questions.
 */
function bothSidesIn(world: LaneWorld, candidate: string, snapshot: string, main: string): boolean {
  const parents = gitOutputOrNull(['rev-parse', `${candidate}^1`, `${candidate}^2`], world.root)
  if (parents === `${snapshot}\n${main}`) return true
  return isAncestor(world.root, main, candidate) && isAncestor(world.root, snapshot, candidate)
}

async function startTask(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  journal: IntegrationJournal,
  input: { task: string; main: string; snapshot: string; base: string | null },
  result: SyncAnswer,
): Promise<SyncResult> {
  const folder = laneTaskFolder(lane.worktree)
  mkdirSync(folder, { recursive: true })
  const file = join(folder, `${input.task}.md`)
  const validationFile = join(folder, `${input.task}.validation.md`)
  // The snapshot is HEAD or a child of it, so main's merge base with HEAD is its merge base with
  // the snapshot too, and a lane last synced at that base needs no ancestry question.
  const from =
    lane.base !== null && (lane.base === input.base || isAncestor(world.root, lane.base, input.snapshot))
      ? lane.base
      : (input.base ?? gitOutput(['merge-base', input.main, input.snapshot], world.root))
  const text = taskFileText({
    task: input.task,
    lane: lane.name,
    mainBranch: world.mainBranch,
    base: input.main,
    snapshot: input.snapshot,
    lastSeenMain: lane.base,
    validationFile,
    snapshotDiff: gitOutput(['diff', from, input.snapshot], world.root),
    checkCommand: world.settings.checkCommand === '' ? null : world.settings.checkCommand,
  })
  resetHard(lane.worktree, input.main)
  world.fault('reset')
  writeFileSync(file, text)
  const now = world.clock.now()
  insertLaneTask(world.db, {
    id: input.task,
    lane: lane.name,
    file,
    validationFile,
    snapshot: input.snapshot,
    base: input.main,
    startedAt: now,
  })
  const prompt = taskPrompt({ lane: lane.name, task: input.task, file, validationFile })
  const delivery =
    lane.agent === null
      ? { delivered: true as const, channel: 'printed' }
      : await world.courier.deliver({ lane: lane.name, worktree: lane.worktree, prompt })
  if (!delivery.delivered) {
    const reason = delivery.reason
    endLaneTask(world.db, input.task, 'restored', world.clock.now())
    await undo(
      world,
      lane,
      holder,
      journal,
      laneRefused(
        'task-undeliverable',
        `git could not merge lane ${lane.name} cleanly and its semantic task could not reach its agent: ${reason}. The lane was restored as it was; ${world.mainBranch} was not moved`,
        `start the lane's agent with sangam lane ${lane.name} from inside tmux (so sangam can hand it the task), or re-create it with --no-agent to do the task yourself, then run sangam sync again`,
      ),
    )
    throw new Error('unreachable: undo always throws')
  }
  await world.lock.heartbeat({ ...holder, task: input.task })
  updateLane(
    world.db,
    lane.name,
    { state: 'task', task: input.task, base: input.main, journal: null, pid: null },
    world.clock.now(),
  )
  world.fault('task-started')
  world.record('task.started', lane.name, { task: input.task, channel: delivery.channel })
  return result('task-started', {
    task: { id: input.task, file, validationFile },
    channel: delivery.channel,
    taskText: lane.agent === null ? text : null,
  })
}
