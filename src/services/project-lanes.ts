import type { Actor } from '../protocol/lease.ts'
import type { Logger } from '../shared/logger.ts'
import type { Random } from '../shared/random.ts'
import { openDeliveryRouter } from './delivery/delivery-use-cases.ts'
import { DeliveryTaskCourier } from './lane-task-courier.ts'
import { resolveActor } from './leases/actor.ts'
import type { ProjectContext } from './project-context.ts'
import { openLocalLanes, withTeam } from './project-lane-world.ts'
import { openRoom } from './room/open-room.ts'
import type { TeamLanes } from './team-lanes.ts'

export interface ProjectLanesInput {
  /** Where the caller stands (the room's poster context for a task handed over). */
  readonly cwd: string
  readonly log: Logger
  readonly random: Random
  readonly pid: number
  /** Where delivery also looks for npm's global vendor CLIs (beside the running node). */
  readonly nodeBinDir: string | null
  readonly fault?: ((step: string) => void) | undefined
  /** Who hands a task over (posts it in the room); the checkout's human (or the session of the environment) when absent. */
  readonly actor?: Actor | undefined
}

/**
 * A project's lanes as every entry point opens them (the CLI, the MCP tools, the dashboard): this
 * machine's lane world, semantic tasks carried to the lane's agent by delivery before its tmux pane
 * (lane-task-courier.ts), and with a team attached the server's lock and the remote's main
 * (team-lanes.ts).
 */
export function openProjectLanes(project: ProjectContext, input: ProjectLanesInput): TeamLanes {
  const local = openLocalLanes(project, input)
  const courier = new DeliveryTaskCourier(
    project,
    () => ({
      scope: openRoom(
        project,
        input.actor ?? resolveActor(project.env, project.human),
        input.cwd,
        input.random,
      ),
      router: openDeliveryRouter(project, {
        pid: input.pid,
        log: input.log,
        random: input.random,
        nodeBinDir: input.nodeBinDir,
      }),
    }),
    local.courier,
  )
  return withTeam(project, { ...local, courier }, input.log)
}
