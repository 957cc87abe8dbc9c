import { runGit } from '../../git/git.ts'
import { findGitLayout } from '../../git/git-layout.ts'
import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { nextSyncStep } from '../core/sync-ladder.ts'
import { type LaneRow, readLane, readLanes, updateLane } from '../store/lane-table.ts'
import { busy, mainCommit } from './integration-steps.ts'
import { changesNothing, mergeBase, resetHard, worktreeState } from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import type { LaneWorld } from './lane-world.ts'
import { takeOver } from './lock-takeover.ts'
import { requireMainInStep } from './main-in-step.ts'
import { mergeOrStartTask } from './merge-or-task.ts'
import { normaliseLanes } from './normalise-lanes.ts'
import { publishDirect } from './publish-direct.ts'
import { publishTask } from './publish-task.ts'
import { saveLaneWork } from './recovery-refs.ts'
import type { SyncInput, SyncOutcome, SyncResult } from './sync-result.ts'

/**
 * `sangam sync`: moves the lane `cwd` is in to its next safe state (lanes/core/sync-ladder.ts),
 * after putting right any integration a crash interrupted. Only this lane and main ever move; a
 * refusal (a SangamError LANE_REFUSED) leaves both as they were and says what to do next.
 */
export async function syncLane(world: LaneWorld, input: SyncInput): Promise<SyncResult> {
  // Recorded in the log, shown to the lock's owner and sent to the team server: no secret.
  if (input.takeover !== undefined) refuseSecret('the reason for the takeover', input.takeover.reason)
  await normaliseLanes(world, { startup: false })
  let lane = laneAt(world, input.cwd)
  if (lane.state === 'integrating')
    throw laneRefused(
      'sync-in-progress',
      `another sangam sync of lane ${lane.name} is running (pid ${lane.pid ?? '?'})`,
      'wait for it to finish, then run sangam sync again if it did not say what you needed',
    )
  // Main is read before anything is taken over or moved: a main moved outside sangam is refused first.
  const main = mainCommit(world)
  requireMainInStep(world, main)
  const takeover = input.takeover === undefined ? null : await takeOver(world, lane, input.takeover.reason)
  lane = readLane(world.db, lane.name) ?? lane
  const holder = await world.lock.current()
  if (holder !== null && holder.lane === lane.name) await world.lock.heartbeat(holder)
  const { head, dirty, own } = worktreeState(lane.worktree)
  // One merge-base answers both ancestries: it is main when main is in head, head when head is in main.
  const base = mergeBase(world.root, main, head)
  const headInMain = base === head
  const step = nextSyncStep(lane.name, {
    head,
    main,
    dirty,
    mainInHead: base === main,
    headInMain,
    // The ladder reads it only for a clean lane main does not already hold.
    emptyChange: !dirty && !headInMain && base !== null && changesNothing(world.root, base, head),
    lockLane: holder?.lane ?? null,
    activeTask: lane.task,
  })
  // Main after the sync: as read above, unless this sync moved it (`extra.main`: what it published).
  const result = (outcome: SyncOutcome, extra: Partial<SyncResult> = {}): SyncResult => {
    const answer: SyncResult = {
      lane: lane.name,
      outcome,
      main,
      task: null,
      channel: null,
      taskText: null,
      takeover,
      ...extra,
    }
    world.record(`sync.${outcome}`, lane.name, { main: answer.main, task: answer.task?.id ?? null })
    return answer
  }
  switch (step.kind) {
    case 'publish-task': {
      return result('published-task', await publishTask(world, lane, step.task))
    }
    case 'already-synced':
      if (lane.base !== main) updateLane(world.db, lane.name, { base: main }, world.clock.now())
      return result('already-synced')
    case 'catch-up':
      await catchUp(world, lane, main, step.reset)
      return result('caught-up')
    case 'no-changes':
      return result('no-changes')
    case 'busy':
      throw busy(world, lane, await world.lock.current())
    case 'publish-direct':
      return result('published-direct', {
        main: await publishDirect(world, lane, { main, head, dirty, own, base }),
      })
    case 'merge':
      return await mergeOrStartTask(world, lane, { main, head, dirty, own, base }, result)
  }
}

/** The lane whose worktree holds `cwd`, or a refusal naming the lanes there are. */
export function laneAt(world: LaneWorld, cwd: string): LaneRow {
  // The worktree's top level from its `.git` (git-layout.ts), asking git only where that is unusual.
  const layout = findGitLayout(cwd)
  const top = layout === null ? runGit(['rev-parse', '--show-toplevel'], cwd) : null
  const root = layout !== null ? layout.worktreeRoot : top?.code === 0 ? top.stdout.trim() : null
  const lanes = readLanes(world.db)
  const lane = lanes.find((row) => row.worktree === root)
  if (lane !== undefined) return lane
  throw laneRefused(
    'not-a-lane',
    `${cwd} is not inside a lane's worktree${lanes.length === 0 ? ' (this project has no lanes yet)' : ` (lanes: ${lanes.map((row) => row.name).join(', ')})`}`,
    'run sangam sync inside a lane (sangam lane <name> creates one and says where it is)',
  )
}

async function catchUp(world: LaneWorld, lane: LaneRow, main: string, reset: boolean): Promise<void> {
  if (reset) {
    // Its commits change nothing, but they are its own: saved before the reset.
    await saveLaneWork(lane.worktree, {
      kind: 'backups',
      lane: lane.name,
      reason: 'catch-up',
      now: world.clock.now(),
    })
    resetHard(lane.worktree, main)
  } else {
    const merged = runGit(['merge', '-q', '--ff-only', main], lane.worktree)
    if (merged.code !== 0)
      throw laneRefused(
        'lane-unsafe-state',
        `lane ${lane.name} could not fast-forward: ${merged.stderr.trim()}`,
        'run sangam status; fix the lane worktree, then sync again',
      )
  }
  updateLane(world.db, lane.name, { base: main }, world.clock.now())
}
