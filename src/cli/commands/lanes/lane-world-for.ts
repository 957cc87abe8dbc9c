import { realpathSync } from 'node:fs'
import type { LaneWorld } from '../../../services/lanes/lane-world.ts'
import { openLaneWorld } from '../../../services/lanes/lane-world.ts'
import { openProject, type ProjectContext } from '../../../services/project-context.ts'
import type { CommandContext } from '../../command.ts'

/** Opens the project and this machine's lane world for a lane command; `close` ends both. */
export function openLaneCommand(ctx: CommandContext): {
  project: ProjectContext
  world: LaneWorld
  cwd: string
} {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const world = openLaneWorld({
      db: project.db,
      clock: ctx.clock,
      repo: project.repo,
      human: project.human,
      childEnv: ctx.env.vendorCliEnv,
      pid: process.pid,
      fault: ctx.laneFault,
    })
    return { project, world, cwd: realpathSync(ctx.cwd) }
  } catch (error) {
    project.close()
    throw error
  }
}
