import { spawnSync } from 'node:child_process'
import { deleteLane } from '../../../services/lanes/delete-lane.ts'
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
    ].join('\n')
    return { json: deleted, text }
  } finally {
    project.close()
  }
}
