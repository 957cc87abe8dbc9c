import { spawnSync } from 'node:child_process'
import { deleteLane } from '../../../lanes/services/delete-lane.ts'
import type { CommandRun } from '../../command.ts'
import type { deleteInput } from './inputs.ts'
import { openLaneCommand } from './lane-world-for.ts'

export const run: CommandRun<typeof deleteInput> = async (ctx, { name }) => {
  const { project, world } = openLaneCommand(ctx)
  try {
    const paneAlive = (pane: string) =>
      spawnSync('tmux', ['display-message', '-p', '-t', pane, '#{pane_id}'], { env: ctx.env.vendorCliEnv })
        .status === 0
    const deleted = await deleteLane(world, name, paneAlive)
    const text = [
      `Deleted lane ${deleted.lane}.`,
      `Manifest: ${deleted.manifest}`,
      deleted.backupRefs.length === 0
        ? 'Backup refs: none'
        : `Backup refs:\n${deleted.backupRefs.map((ref) => `  ${ref}`).join('\n')}`,
      ...(deleted.sangamFiles.length === 0
        ? []
        : [`Removed with it, sangam's own: ${describeFiles(deleted.sangamFiles)}`]),
    ].join('\n')
    return { json: deleted, text }
  } finally {
    project.close()
  }
}

/** The first few paths and how many more: a lane's task files can be many. */
function describeFiles(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ')
  return paths.length > 5 ? `${shown}, and ${paths.length - 5} more` : shown
}
