import { loadMachineId } from '../config/machine-id.ts'
import { gitOutputOrNull } from '../git/git.ts'
import { type Logger, silentLogger } from '../shared/logger.ts'
import { isSangamError } from '../shared/sangam-error.ts'
import { pushLaneRefs } from './lanes/lane-refs-push.ts'
import type { LaneWorld } from './lanes/lane-world.ts'
import { catchUpWithRemote } from './lanes/remote-catch-up.ts'
import { type RemoteMain, RemoteMainPublisher } from './lanes/remote-main-publisher.ts'
import { type SyncInput, type SyncResult, syncLane } from './lanes/sync-lane.ts'
import { readAttachment } from './sync/attachment.ts'
import { ServerIntegrationLock } from './sync/server-integration-lock.ts'

/**
 * The lanes of a project attached to a team server (D221): the integration lock is the server's
 * (`ServerIntegrationLock`), and when the repository has a remote, publishing moves the remote's
 * main first (`RemoteMainPublisher`). Unattached, the world is returned as it is: the machine's
 * own lock and main. Every lane command opens its world through here, so attaching switches them
 * all at once (as `arbiter-choice.ts` does for leases).
 */
export interface TeamLanes {
  readonly world: LaneWorld
  /** The shared remote, or null (attached, but the repository has no remote: the lock only). */
  readonly remote: RemoteMain | null
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
  if (attachment === null) return { world, remote: null, local: world.publisher, log }
  const lock = new ServerIntegrationLock(attachment, {
    machine: loadMachineId(input.sangamHome),
    staleAfterMs: world.settings.lockStaleMinutes * 60_000,
  })
  const name = remoteName(world.root)
  if (name === null) return { world: { ...world, lock }, remote: null, local: world.publisher, log }
  const remote: RemoteMain = {
    root: world.root,
    commonDir: world.commonDir,
    remote: name,
    mainBranch: world.mainBranch,
  }
  const publisher = new RemoteMainPublisher(world.publisher, remote, log)
  return { world: { ...world, lock, publisher }, remote, local: world.publisher, log }
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
  const { remote } = team
  for (let attempt = 1; ; attempt += 1) {
    if (remote !== null) {
      const caught = await catchUpWithRemote(remote, team.local)
      if ('warning' in caught) warnings.push(caught.warning)
    }
    try {
      const result = await syncLane(team.world, input)
      if (remote !== null) warnings.push(...pushLaneRefs(team.world.db, remote))
      for (const warning of warnings) team.log.warn(warning)
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

/** `origin`, else the first remote; null when the repository has none. */
function remoteName(root: string): string | null {
  const names = (gitOutputOrNull(['remote'], root) ?? '').split('\n').filter((line) => line !== '')
  return names.includes('origin') ? 'origin' : (names[0] ?? null)
}
