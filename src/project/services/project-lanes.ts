import type { Actor } from '../../identity/protocol/actor.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { TaskCourier } from '../../lanes/services/task-courier.ts'
import type { AuthorKind } from '../../room/protocol/message.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Random } from '../../shared/random.ts'
import { openLocalLanes, withTeam } from './project-lane-world.ts'
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
  /** Who is typing, as the caller's channel tells it (`room/core/post-author.ts`); `unknown` when absent. */
  readonly author?: AuthorKind | undefined
}

/**
 * A project's lanes as every entry point opens them (the CLI, the MCP tools, the dashboard): this
 * machine's lane world, semantic tasks carried to the lane's agent by delivery before its tmux pane
 * (lane-task-courier.ts), and with a team attached the server's lock and the remote's main
 * (team-lanes.ts).
 */
export function openProjectLanes(project: ProjectContext, input: ProjectLanesInput): TeamLanes {
  const local = openLocalLanes(project, input)
  // Delivery and the room (some 200 modules with zod) are loaded only when a task is handed
  // over: every other sync, status and log never pays for them.
  const courier: TaskCourier = {
    deliver: async (task) => {
      const [{ DeliveryTaskCourier }, { openDeliveryRouter }, { resolveActor }, { openRoom }] =
        await Promise.all([
          import('./lane-task-courier.ts'),
          import('../../delivery/services/open-router.ts'),
          import('../../leases/services/actor.ts'),
          import('../../room/services/open-room.ts'),
        ])
      const delivery = new DeliveryTaskCourier(
        project,
        () => ({
          scope: openRoom(
            project,
            input.actor ?? resolveActor(project.env, project.human),
            input.cwd,
            input.random,
            input.author ?? 'unknown',
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
      return await delivery.deliver(task)
    },
  }
  return withTeam(project, { ...local, courier }, input.log)
}
