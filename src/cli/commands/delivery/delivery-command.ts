import { dirname } from 'node:path'
import { codexWake } from '../../../agents/codex/services/codex-wake.ts'
import { version } from '../../../config/version.ts'
import type { DeliveryRouter } from '../../../delivery/services/delivery-router.ts'
import { openDeliveryRouter } from '../../../delivery/services/open-router.ts'
import type { OpenProjectOptions, ProjectContext } from '../../../identity/services/project-context.ts'
import { resolveActor } from '../../../leases/services/actor.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { openRoom } from '../../../room/services/open-room.ts'
import type { RoomScope } from '../../../room/services/room-scope.ts'
import { systemRandom } from '../../../shared/random.ts'
import { cliAuthor } from '../../cli-author.ts'
import type { CommandContext } from '../../command.ts'

/** A just-started vendor CLI that fails within this long is reported as failed by the command. */
const earlyExitMs = 1000

/**
 * Opens what every delivery command needs: the project, the room as the caller sees it, and the
 * delivery router of this process, with the wake-in-place channel the daemon has: `send` starts a
 * turn in a Codex session under `sangam codex` in place, and `sessions` shows it `live`. The
 * commands that only show (`sessions`, `deliveries`) pass `{ createStore: false }`.
 */
export async function withDelivery<T>(
  ctx: CommandContext,
  use: (project: ProjectContext, router: DeliveryRouter, scope: RoomScope) => T | Promise<T>,
  options: OpenProjectOptions = {},
): Promise<T> {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, options)
  try {
    const router = openDeliveryRouter(project, {
      pid: process.pid,
      log: ctx.log,
      random: systemRandom,
      nodeBinDir: dirname(process.execPath),
      earlyExitMs,
      wake: codexWake({ db: project.db, clientVersion: version }),
    })
    const scope = openRoom(
      project,
      resolveActor(ctx.env, project.human),
      ctx.cwd,
      systemRandom,
      cliAuthor(ctx),
    )
    return await use(project, router, scope)
  } finally {
    project.close()
  }
}
