import { laneLog } from '../../../services/lanes/lane-status.ts'
import type { CommandRun } from '../../command.ts'
import { openLaneCommand } from './lane-world-for.ts'

export const run: CommandRun = async (ctx) => {
  const { project, world } = openLaneCommand(ctx, { createStore: false })
  try {
    const events = laneLog(world)
    const text = events
      .map(
        (event) =>
          `${event.id} ${new Date(event.at).toISOString()} ${event.type}${event.lane ? ` ${event.lane}` : ''} ${JSON.stringify(event.payload)}`,
      )
      .join('\n')
    return { json: { events }, text: text === '' ? 'no integration events yet' : text }
  } finally {
    project.close()
  }
}
