import { loadMachineId } from '../../config/machine-id.ts'
import { pushRemoteName } from '../../git/config-remotes.ts'
import { pushLaneRefs } from '../../lanes/services/lane-refs-push.ts'
import { laneRefused } from '../../lanes/services/lane-refused.ts'
import type { LaneWorld } from '../../lanes/services/lane-world.ts'
import {
  acceptMainHere,
  keepOutside,
  mainHere,
  requireMainInStep,
  resolveCommit,
} from '../../lanes/services/main-in-step.ts'
import { mainOutsideRefused, outsideRemote } from '../../lanes/services/main-record.ts'
import { pushMainToRemote } from '../../lanes/services/main-remote-push.ts'
import { type CatchUp, catchUpWithRemote } from '../../lanes/services/remote-catch-up.ts'
import { type RemoteMain, RemoteMainPublisher } from '../../lanes/services/remote-main-publisher.ts'
import { laneAt, syncLane } from '../../lanes/services/sync-lane.ts'
import type { SyncInput, SyncResult } from '../../lanes/services/sync-result.ts'
import type { TeamMainDesk } from '../../lanes/services/team-main-desk.ts'
import { writeTeamLockSeen } from '../../lanes/store/team-lock-seen-table.ts'
import { machineNames } from '../../room/services/machine-names.ts'
import { type Logger, silentLogger } from '../../shared/logger.ts'
import { isSangamError } from '../../shared/sangam-error.ts'
import { readAttachment } from '../../sync/services/attachment.ts'
import { ServerIntegrationLock } from '../../sync/services/server-integration-lock.ts'

/**
 * The lanes of a project attached to a team server (D221): the integration lock is the server's
 * (`ServerIntegrationLock`), and when the repository has a remote, publishing moves the remote's
 * main first (`RemoteMainPublisher`). Unattached, the world is returned as it is: the machine's
 * own lock and main, pushed to the repository's remote after each sync when it has one (D303). Every lane command opens its world through here, so attaching switches them
 * all at once (as `lease-arbiter.ts` does for leases).
 */
export interface TeamLanes {
  readonly world: LaneWorld
  /** The shared remote, or null (unattached, or attached but the repository has no remote: the lock only). */
  readonly remote: RemoteMain | null
  /** Attached to a team server: the lock is the server's. */
  readonly attached: boolean
  /** The team's record of main (the team server), when attached. */
  readonly desk: TeamMainDesk | null
  /** This machine's own publisher (catch-ups move main here only). */
  readonly local: LaneWorld['publisher']
  readonly log: Logger
}

export interface TeamLanesInput {
  readonly projectDir: string
  readonly sangamHome: string
  readonly log?: Logger | undefined
}

export function teamLanes(world: LaneWorld, input: TeamLanesInput): TeamLanes {
  const log = input.log ?? silentLogger
  const attachment = readAttachment(input.projectDir)
  if (attachment === null)
    return { world, remote: null, attached: false, desk: null, local: world.publisher, log }
  const lock = new ServerIntegrationLock(attachment, {
    machine: loadMachineId(input.sangamHome),
    staleAfterMs: world.settings.lockStaleMinutes * 60_000,
    // Kept for the brief, which asks no server (D307).
    seen: (holder) =>
      writeTeamLockSeen(world.db, {
        holder:
          holder === null
            ? null
            : {
                lane: holder.lane,
                owner: holder.owner,
                machine: holder.machine,
                elsewhere: holder.elsewhere,
                task: holder.task,
                since: holder.since,
                heartbeatAt: holder.heartbeatAt,
              },
        seenAt: world.clock.now(),
      }),
    machineLabel: (machine) => machineNames(world.db, null).label(machine),
  })
  const name = pushRemoteName(world.root)
  if (name === null)
    return {
      world: { ...world, lock },
      remote: null,
      attached: true,
      desk: lock,
      local: world.publisher,
      log,
    }
  const remote: RemoteMain = {
    root: world.root,
    commonDir: world.commonDir,
    remote: name,
    mainBranch: world.mainBranch,
  }
  const publisher = new RemoteMainPublisher(world.publisher, remote, log, lock)
  return {
    world: { ...world, lock, publisher },
    remote,
    attached: true,
    desk: lock,
    local: world.publisher,
    log,
  }
}

/**
 * `sangam sync` for a team: catch up with the remote's main, sync, then push the lane branches
 * and recovery refs (best effort; each failure a warning, retried by the next sync). When another
 * machine published between the catch-up and this lane's publish (`main-moved`, nothing moved),
 * it catches up again and syncs again, so the second of two racing machines merges on top of the
 * first instead of failing; at most `attempts` times.
 */
export async function syncLaneWithTeam(
  team: TeamLanes,
  input: SyncInput,
  attempts = 3,
): Promise<SyncResult & { readonly warnings: readonly string[] }> {
  const warnings: string[] = []
  const { remote, world } = team
  // This machine's main first (D300): a catch-up must neither build on a main moved by hand nor
  // paper over it. `--accept-main` accepts whichever of the two mains it names.
  const lane = laneAt(world, input.cwd)
  const accept = input.acceptMain === undefined ? null : { wanted: input.acceptMain, used: false }
  if (accept !== null) accept.used = acceptMainHere(world, lane.name, accept.wanted)
  requireMainInStep(world, mainHere(world))
  for (let attempt = 1; ; attempt += 1) {
    if (remote !== null) {
      let caught = await catchUpWithRemote(remote, team.local, team.desk)
      if (caught.status === 'outside') {
        await acceptOrRefuseRemote(team, remote, lane.name, caught, accept)
        caught = await catchUpWithRemote(remote, team.local, team.desk)
        if (caught.status === 'outside') await acceptOrRefuseRemote(team, remote, lane.name, caught, null)
      }
      if ('warning' in caught) warnings.push(caught.warning)
    }
    if (accept !== null && !accept.used)
      throw laneRefused(
        'nothing-to-accept',
        `${accept.wanted} is not a ${world.mainBranch} that moved outside sangam: ${world.mainBranch} here${remote === null ? '' : ` and on ${remote.remote}`} is where sangam last moved it; nothing was accepted`,
        'run sangam sync without --accept-main',
      )
    try {
      const result = await syncLane(team.world, input)
      if (remote !== null) warnings.push(...pushLaneRefs(team.world.db, remote))
      else if (!team.attached) warnings.push(...pushToOwnRemote(team.world))
      // Said by the caller (the CLI's `warning:` lines and `--json`, the MCP tool's text), not logged.
      return { ...result, warnings }
    } catch (error) {
      const again =
        isSangamError(error) && error.wireCode === 'main-moved' && remote !== null && attempt < attempts
      if (!again) throw error
      team.log.info('main moved on the remote while this sync ran: catching up and syncing again', {
        attempt,
      })
    }
  }
}

/**
 * The team remote's main is outside the team's record (D302): accepted when `--accept-main` names
 * it (a compare-and-swap on the server from the record seen), else kept under
 * `refs/sangam/outside/` and refused. Returns only when accepted.
 */
async function acceptOrRefuseRemote(
  team: TeamLanes,
  remote: RemoteMain,
  lane: string,
  caught: Extract<CatchUp, { status: 'outside' }>,
  accept: { readonly wanted: string; used: boolean } | null,
): Promise<void> {
  const { world } = team
  const named = accept === null ? null : resolveCommit(world, accept.wanted)
  if (accept !== null && named === caught.remote && team.desk !== null) {
    const taken = await team.desk.accept({
      commit: caught.remote,
      expected: caught.record.commit,
      lane,
      owner: world.human,
    })
    if (!taken)
      throw laneRefused(
        'main-moved',
        `the team's record of ${world.mainBranch} changed while ${caught.remote.slice(0, 12)} was being accepted; nothing was accepted`,
        'run sangam sync again and look at what it says now',
      )
    accept.used = true
    world.record('main.accepted', lane, {
      where: 'remote',
      commit: caught.remote,
      recorded: caught.record.commit,
      by: world.human,
    })
    return
  }
  const outside = outsideRemote({
    remote: remote.remote,
    root: remote.root,
    mainBranch: remote.mainBranch,
    actual: caught.remote,
    record: caught.record,
  })
  throw mainOutsideRefused(outside, keepOutside(world, outside))
}

/**
 * Unattached, a repository with a remote gets main, the lane branches and the recovery refs pushed
 * after each sync (D303), best effort: the remote is the owner's own, and the guard keeps them
 * from pushing main there by hand.
 */
function pushToOwnRemote(world: LaneWorld): string[] {
  const chosen = world.settings.pushRemote.trim()
  if (chosen === 'none') return []
  const name = chosen === '' ? pushRemoteName(world.root) : chosen
  if (name === null) return []
  const remote: RemoteMain = {
    root: world.root,
    commonDir: world.commonDir,
    remote: name,
    mainBranch: world.mainBranch,
  }
  return [...pushMainToRemote(remote), ...pushLaneRefs(world.db, remote)]
}
