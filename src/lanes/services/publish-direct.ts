import type { IntegrationJournal, LaneRow } from '../store/lane-table.ts'
import {
  begin,
  checkAndPublish,
  mainCommit,
  requireLaneSafe,
  requireMainPublishable,
  type SyncStart,
  undo,
} from './integration-steps.ts'
import { commitAll } from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import type { LaneWorld } from './lane-world.ts'

/** Publishes a lane built on the latest main; answers main's new commit. */
export async function publishDirect(world: LaneWorld, lane: LaneRow, start: SyncStart): Promise<string> {
  const { main, dirty } = start
  requireMainPublishable(world)
  requireLaneSafe(lane)
  const journal: IntegrationJournal = {
    kind: 'direct',
    resume: 'idle',
    headBefore: start.head,
    snapshotted: dirty,
    task: null,
    publishFrom: null,
    publishTo: null,
  }
  const holder = await begin(world, lane, journal)
  const candidate = dirty
    ? commitAll(lane.worktree, `sangam direct publish: ${lane.name}`, start.own)
    : start.head
  world.fault('snapshot')
  if (mainCommit(world) !== main)
    await undo(
      world,
      lane,
      holder,
      journal,
      laneRefused('main-moved', `${world.mainBranch} moved while this sync ran`, 'run sangam sync again'),
    )
  await checkAndPublish(world, lane, holder, journal, { from: main, to: candidate })
  return candidate
}
