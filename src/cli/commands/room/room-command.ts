import type { OpenProjectOptions, ProjectContext } from '../../../identity/services/project-context.ts'
import { resolveActor } from '../../../leases/services/actor.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { openRoom } from '../../../room/services/open-room.ts'
import type { RoomScope } from '../../../room/services/room-scope.ts'
import { systemRandom } from '../../../shared/random.ts'
import { cliAuthor } from '../../cli-author.ts'
import type { CommandContext } from '../../command.ts'

/**
 * Opens what every room command needs: the project and the room as the caller sees it (an agent
 * session when its variables are set, else the human), and closes the project after `use`.
 */
export async function withRoom<T>(
  ctx: CommandContext,
  use: (scope: RoomScope, project: ProjectContext) => T | Promise<T>,
): Promise<T> {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    return await use(
      openRoom(project, resolveActor(ctx.env, project.human), ctx.cwd, systemRandom, cliAuthor(ctx)),
      project,
    )
  } finally {
    project.close()
  }
}

/**
 * For the commands that need the project alone (`read`, `threads`, `board`, `ready`, `chat`);
 * those that only read pass `{ createStore: false }`.
 */
export async function withProject<T>(
  ctx: CommandContext,
  use: (project: ProjectContext) => T | Promise<T>,
  options: OpenProjectOptions = {},
): Promise<T> {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, options)
  try {
    return await use(project)
  } finally {
    project.close()
  }
}

/** The terminal's width for text output; 100 when it is not a terminal. */
export function terminalWidth(ctx: CommandContext): number {
  const columns = (ctx.stdout as { columns?: number | undefined }).columns
  return columns !== undefined && columns > 0 ? columns : 100
}
