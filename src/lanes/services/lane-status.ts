import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { gitOutput } from '../../git/git.ts'
import { worktreeChanges } from '../../git/worktree-changes.ts'
import type { MachineNames } from '../../identity/core/machine-labels.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import { remoteMainInStep } from '../core/main-record.ts'
import { isLockStale } from '../core/sync-ladder.ts'
import type { LaneStatus, LaneTaskView, LaneView } from '../protocol/lane-status-view.ts'
import { type IntegrationEvent, readIntegrationEvents } from '../store/integration-event-table.ts'
import { type LaneRow, readLanes, readLaneTask } from '../store/lane-table.ts'
import { describeState } from './enter-lane.ts'
import { readGuardState } from './guard-state.ts'
import { refCommit } from './lane-git.ts'
import type { LaneWorld } from './lane-world.ts'
import { lookAtMain, type MainOutside, outsideRemote } from './main-record.ts'
import { baseRef, snapshotRef } from './recovery-refs.ts'
import type { RemoteMain } from './remote-main-publisher.ts'
import type { TeamMainDesk } from './team-main-desk.ts'

export type { LaneStatus, LaneTaskView, LaneView } from '../protocol/lane-status-view.ts'

/** With a team attached: its record of main and the shared remote, for `mainOutside`. */
export interface TeamMainView {
  readonly desk: TeamMainDesk | null
  readonly remote: RemoteMain | null
}

export async function laneStatus(world: LaneWorld, team: TeamMainView | null = null): Promise<LaneStatus> {
  const main = refCommit(world.root, world.mainBranch)
  const holder = await world.lock.current()
  const staleAfterMs = world.settings.lockStaleMinutes * 60_000
  return {
    main,
    mainBranch: world.mainBranch,
    lock:
      holder === null
        ? null
        : {
            lane: holder.lane,
            task: holder.task,
            since: holder.since,
            owner: holder.owner,
            heartbeatAt: holder.heartbeatAt,
            stale: isLockStale(holder.heartbeatAt, world.clock.now(), staleAfterMs),
          },
    guard: guardState(world),
    mainOutside: await mainOutsideNow(world, main, team),
    lanes: readLanes(world.db).map((lane) => laneView(world, lane, main, holder?.lane ?? null)),
  }
}

/**
 * Main moved outside sangam as a reader sees it (status, the board, the daemon): this machine's
 * main against its record, else the team remote's main as this machine last fetched it against the
 * team server's record (no fetch, that is sync's; one question to the server). Writes nothing but
 * to settle a move sangam itself began.
 */
export async function mainOutsideNow(
  world: LaneWorld,
  main: string | null,
  team: TeamMainView | null,
): Promise<MainOutside | null> {
  return lookAtMain(world, main, { adopt: false }) ?? (await remoteOutside(team))
}

async function remoteOutside(team: TeamMainView | null): Promise<MainOutside | null> {
  if (team === null || team.desk === null || team.remote === null) return null
  const { remote } = team
  const fetched = refCommit(remote.root, `refs/remotes/${remote.remote}/${remote.mainBranch}`)
  const record = await team.desk.read()
  if (fetched === null || record === null || remoteMainInStep(record, fetched)) return null
  return outsideRemote({
    remote: remote.remote,
    root: remote.root,
    mainBranch: remote.mainBranch,
    actual: fetched,
    record,
  })
}

/**
 * One lane as `status` shows it, read from its worktree (or its branch when the worktree is gone):
 * `root` is any worktree of the repository, `main` main's commit and `lockLane` the lock's holder.
 */
export function laneView(
  world: { readonly db: Db; readonly root: string },
  lane: LaneRow,
  main: string | null,
  lockLane: string | null,
): LaneView {
  const here = existsSync(lane.worktree) ? worktreeState(lane.worktree) : null
  const head = here !== null ? here.head : refCommit(world.root, `refs/heads/${lane.branch}`)
  const dirty = here?.dirty ?? false
  // A lane on main's commit is neither ahead nor behind: no rev-list for the common, quiet case.
  const [ahead, behind] =
    head !== null && main !== null && head !== main
      ? gitOutput(['rev-list', '--left-right', '--count', `${head}...${main}`], world.root)
          .split(/\s+/)
          .map(Number)
      : [0, 0]
  const task = lane.task === null ? null : readLaneTask(world.db, lane.task)
  const taskView: LaneTaskView | null =
    task === null
      ? null
      : {
          id: task.id,
          file: task.file,
          validationFile: task.validationFile,
          snapshotRef: snapshotRef(task.id),
          snapshot: refCommit(world.root, snapshotRef(task.id)),
          baseRef: baseRef(task.id),
          base: refCommit(world.root, baseRef(task.id)),
        }
  return {
    name: lane.name,
    state: describeState(lane, lane.worktree, dirty),
    branch: lane.branch,
    head,
    dirty,
    behind: behind ?? 0,
    ahead: ahead ?? 0,
    task: taskView,
    owner: lane.owner,
    worktree: lane.worktree,
    agent: lane.agent,
    next: nextStep(lane, {
      dirty,
      behind: behind ?? 0,
      ahead: ahead ?? 0,
      lockLane,
      taskFile: task === null ? null : relative(lane.worktree, task.file),
    }),
  }
}

/**
 * The lane's next safe step. Only work to publish (uncommitted, or commits main lacks) waits for
 * the lock; a clean lane that is merely behind catches up at once, lock or not (D202).
 */
function nextStep(
  lane: LaneRow,
  facts: {
    dirty: boolean
    behind: number
    ahead: number
    lockLane: string | null
    /** The task file, relative to the lane's worktree (where its agent works). */
    taskFile: string | null
  },
): string {
  if (lane.state === 'integrating')
    return 'an integration is running or was interrupted: the next sangam sync puts it right'
  if (lane.task !== null)
    return `finish task ${lane.task} in this lane (${facts.taskFile ?? 'task file missing'}): commit the union, write the validation report, run sangam sync`
  if (!existsSync(lane.worktree))
    return `its worktree is gone: sangam lane ${lane.name} re-creates it, sangam delete ${lane.name} retires it`
  const work = facts.dirty || facts.ahead > 0
  if (work && facts.lockLane !== null && facts.lockLane !== lane.name)
    return `wait for lane ${facts.lockLane} to publish, then run sangam sync`
  if (work) return 'run sangam sync to publish this work'
  if (facts.behind > 0) return 'run sangam sync to catch up'
  return 'nothing to do: in step with main'
}

/**
 * A worktree's HEAD and whether it has uncommitted changes (`isDirty`'s rule: untracked files
 * count, ignored ones and sangam's own do not), from one `git status` rather than a `rev-parse` and
 * a `status`: `status` and the board read every lane, so each git process saved is saved per lane.
 */
function worktreeState(worktree: string): { head: string | null; dirty: boolean } {
  const changes = worktreeChanges(worktree)
  if (changes === null) throw new SangamError(ErrorCode.GitFailed, `git status failed in ${worktree}`)
  return { head: changes.head, dirty: changes.uncommitted.length > 0 }
}

/** Whether the six guard hooks are installed and the repository armed (`guard-state.ts`). */
export function guardState(world: LaneWorld): { installed: boolean; missing: string[] } {
  const state = readGuardState(world.root, world.commonDir)
  return { installed: state.missing.length === 0, missing: [...state.missing] }
}

/** An integration event as `sangam log` and the dashboard show it: with the machine it happened on. */
export interface LogEntry extends IntegrationEvent {
  readonly machine: string
  /** The machine's readable name (room/services/machine-names.ts). */
  readonly machineName: string
}

/**
 * `sangam log`: the latest integration events of every machine of the team, oldest first (a row
 * recorded before machines were is this machine's).
 */
export function laneLog(world: LaneWorld, names: MachineNames, limit = 100): LogEntry[] {
  return readIntegrationEvents(world.db, limit).map((event) => {
    const machine = event.machine ?? world.machine
    return { ...event, machine, machineName: names.label(machine) }
  })
}
