import { realpathSync } from 'node:fs'
import { projectDir } from '../../../config/data-paths.ts'
import type { LaneWorld } from '../../../services/lanes/lane-world.ts'
import { openLaneWorld } from '../../../services/lanes/lane-world.ts'
import { openProject, type ProjectContext } from '../../../services/project-context.ts'
import { type TeamLanes, teamLanes } from '../../../services/team-lanes.ts'
import type { CommandContext } from '../../command.ts'

/** Opens the project and this machine's lane world for a lane command; `close` ends both. */
export function openLaneCommand(ctx: CommandContext): {
  project: ProjectContext
  world: LaneWorld
  team: TeamLanes
  cwd: string
} {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const local = openLaneWorld({
      db: project.db,
      clock: ctx.clock,
      repo: project.repo,
      human: project.human,
      childEnv: ctx.env.vendorCliEnv,
      pid: process.pid,
      fault: ctx.laneFault,
    })
    // Attached to a team server, the lock is the server's and publishing moves the remote's main.
    const team = teamLanes(local, {
      projectDir: projectDir(ctx.env.sangamHome, project.repo.projectId),
      sangamHome: ctx.env.sangamHome,
      log: ctx.log,
    })
    return { project, world: team.world, team, cwd: realpathSync(ctx.cwd) }
  } catch (error) {
    project.close()
    throw error
  }
}
