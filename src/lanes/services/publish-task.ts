import { existsSync, readFileSync } from 'node:fs'
import { checkValidationReport } from '../core/task-file.ts'
import { describeDirt } from '../core/worktree-dirt.ts'
import {
  endLaneTask,
  type IntegrationJournal,
  type LaneRow,
  readLaneTask,
  updateLane,
} from '../store/lane-table.ts'
import {
  begin,
  busy,
  checkCandidate,
  finish,
  mainCommit,
  publish,
  requireLaneSafe,
  requireMainPublishable,
} from './integration-steps.ts'
import { dirtyFiles, headOf, isAncestor, refCommit } from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import type { LaneWorld } from './lane-world.ts'
import { baseRef, snapshotRef } from './recovery-refs.ts'
import type { SyncResult } from './sync-result.ts'

/** The publish checks of an active task, then main moves to the lane's candidate. */
export async function publishTask(world: LaneWorld, lane: LaneRow, id: string): Promise<Partial<SyncResult>> {
  const task = readLaneTask(world.db, id)
  const sameLane = (what: string) =>
    `stay in lane ${lane.name}: ${what}, then run sangam sync again (this is lane ${lane.name}'s own unfinished task ${id}; do not move ${world.mainBranch} by hand)`
  const holder = await world.lock.current()
  if (holder !== null && holder.lane !== lane.name) throw busy(world, lane, holder)
  if (task === null || !existsSync(task.file))
    throw laneRefused(
      'task-file-missing',
      `the task file of active task ${id} is missing: ${task?.file ?? '(no record)'}`,
      'run sangam status; restarting sangam up restores the lane from its snapshot (backed up first)',
    )
  const snapshot = refCommit(world.root, snapshotRef(id))
  const base = refCommit(world.root, baseRef(id))
  if (snapshot === null || base === null)
    throw laneRefused(
      'task-refs-missing',
      `the ${snapshot === null ? 'snapshot' : 'base'} ref of active task ${id} is missing (${snapshot === null ? snapshotRef(id) : baseRef(id)})`,
      'run sangam status; restarting sangam up restores the lane (backed up first)',
    )
  requireLaneSafe(lane)
  const dirt = dirtyFiles(lane.worktree)
  if (dirt.length > 0)
    throw laneRefused(
      'task-dirty',
      `lane ${lane.name} has uncommitted changes (${describeDirt(dirt)})`,
      sameLane('commit the union (the worktree must be clean)'),
    )
  const candidate = headOf(lane.worktree)
  if (candidate === base)
    throw laneRefused(
      'task-no-candidate',
      `task ${id} has no candidate commit: the lane is still the base ${base.slice(0, 12)}`,
      sameLane(
        "implement the snapshot's behaviour on the latest main and commit it (an explicit no-op commit if main already covers it)",
      ),
    )
  if (!existsSync(task.validationFile))
    throw laneRefused(
      'validation-missing',
      `the validation report is missing: ${task.validationFile}`,
      sameLane(
        `write it at ${task.validationFile}: what you checked, the commands you ran and their results`,
      ),
    )
  const report = checkValidationReport(readFileSync(task.validationFile, 'utf8'))
  if (!report.ok)
    throw laneRefused(
      'validation-incomplete',
      `the validation report ${task.validationFile} ${report.problem}`,
      sameLane('complete the report'),
    )
  requireMainPublishable(world)
  const main = mainCommit(world)
  if (!isAncestor(world.root, main, candidate))
    throw laneRefused(
      'main-moved',
      `${world.mainBranch} moved past this task's base (${main.slice(0, 12)} is not in the candidate)`,
      sameLane(`merge ${world.mainBranch} into the lane (git merge ${world.mainBranch}), commit`),
    )
  const journal: IntegrationJournal = {
    kind: 'task-publish',
    resume: 'task',
    headBefore: candidate,
    snapshotted: false,
    task: id,
    publishFrom: null,
    publishTo: null,
  }
  // The task keeps the lock through a failed check: it is still this lane's turn.
  const held = await begin(world, lane, journal)
  const failed = checkCandidate(world, lane)
  if (failed !== null) {
    updateLane(world.db, lane.name, { state: 'task', journal: null, pid: null }, world.clock.now())
    throw failed
  }
  const keepTask = async (error: Error): Promise<never> => {
    updateLane(world.db, lane.name, { state: 'task', journal: null, pid: null }, world.clock.now())
    throw error
  }
  await publish(world, lane, held, keepTask, journal, main, candidate)
  endLaneTask(world.db, id, 'published', world.clock.now())
  await finish(world, lane, held, candidate)
  return { main: candidate, task: { id, file: task.file, validationFile: task.validationFile } }
}
