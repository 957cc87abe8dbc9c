import { describeIntegrationEvent } from '../../../services/lanes/integration-event-text.ts'
import { laneLog } from '../../../services/lanes/lane-status.ts'
import type { CommandRun } from '../../command.ts'
import { openLaneCommand } from './lane-world-for.ts'

export const run: CommandRun = async (ctx) => {
  const { project, world } = openLaneCommand(ctx, { createStore: false })
  try {
    const events = laneLog(world)
    const now = ctx.clock.now()
    const text = events.map((event) => describeIntegrationEvent(event, now)).join('\n')
    return { json: { events }, text: text === '' ? 'no integration events yet' : text }
  } finally {
    project.close()
  }
}
