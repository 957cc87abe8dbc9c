import { projectDir } from '../../config/data-paths.ts'
import { loadMachineId } from '../../config/machine-id.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { type LaneWorld, openLaneWorld } from '../../lanes/services/lane-world.ts'
import type { Logger } from '../../shared/logger.ts'
import { type TeamLanes, teamLanes } from './team-lanes.ts'

/** This machine's lane world for a project: the store's lock, main moved here, the tmux courier. */
export function openLocalLanes(
  project: ProjectContext,
  input: { readonly pid: number; readonly fault?: ((step: string) => void) | undefined },
): LaneWorld {
  return openLaneWorld({
    db: project.db,
    clock: project.clock,
    repo: project.repo,
    human: project.human,
    machine: loadMachineId(project.env.sangamHome),
    childEnv: project.env.vendorCliEnv,
    pid: input.pid,
    fault: input.fault,
  })
}

/** `world` with the team's lock and the remote's main when the project is attached (team-lanes.ts). */
export function withTeam(project: ProjectContext, world: LaneWorld, log: Logger): TeamLanes {
  return teamLanes(world, {
    projectDir: projectDir(project.env.sangamHome, project.repo.projectId),
    sangamHome: project.env.sangamHome,
    log,
  })
}

/**
 * A project's lanes for reading (the board): the same world, lock and main as `openProjectLanes`,
 * without the courier that hands a semantic task to a lane's agent through delivery, since reading
 * hands nothing over; so delivery's modules are not loaded for it.
 */
export function openLanesForReading(
  project: ProjectContext,
  input: { readonly pid: number; readonly log: Logger },
): TeamLanes {
  return withTeam(project, openLocalLanes(project, input), input.log)
}
