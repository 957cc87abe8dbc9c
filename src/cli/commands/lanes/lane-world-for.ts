import { realpathSync } from 'node:fs'
import { dirname } from 'node:path'
import type { OpenProjectOptions, ProjectContext } from '../../../identity/services/project-context.ts'
import type { LaneWorld } from '../../../lanes/services/lane-world.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { openProjectLanes } from '../../../project/services/project-lanes.ts'
import type { TeamLanes } from '../../../project/services/team-lanes.ts'
import { systemRandom } from '../../../shared/random.ts'
import { cliAuthor } from '../../cli-author.ts'
import type { CommandContext } from '../../command.ts'

/**
 * Opens the project and its lanes for a lane command (project-lanes.ts); `close` ends both. The
 * commands that only show (`status`, `log`) pass `{ createStore: false }`.
 */
export function openLaneCommand(
  ctx: CommandContext,
  options: OpenProjectOptions = {},
): {
  project: ProjectContext
  world: LaneWorld
  team: TeamLanes
  cwd: string
} {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, options)
  try {
    // Attached to a team server, the lock is the server's and publishing moves the remote's main;
    // a semantic task reaches the lane's agent through delivery, else its tmux pane.
    const team = openProjectLanes(project, {
      cwd: ctx.cwd,
      log: ctx.log,
      random: systemRandom,
      pid: process.pid,
      nodeBinDir: dirname(process.execPath),
      fault: ctx.laneFault,
      author: cliAuthor(ctx),
    })
    return { project, world: team.world, team, cwd: realpathSync(ctx.cwd) }
  } catch (error) {
    project.close()
    throw error
  }
}
