import { thisMachine } from '../../../identity/services/this-machine.ts'
import { describeIntegrationEvent } from '../../../lanes/services/integration-event-text.ts'
import { laneLog } from '../../../lanes/services/lane-status.ts'
import { machineNames } from '../../../room/services/machine-names.ts'
import type { CommandRun } from '../../command.ts'
import { openLaneCommand } from './lane-world-for.ts'

export const run: CommandRun = async (ctx) => {
  const { project, world } = openLaneCommand(ctx, { createStore: false })
  try {
    const events = laneLog(world, machineNames(project.db, thisMachine(ctx.env.sangamHome)))
    const now = ctx.clock.now()
    const text = events.map((event) => describeIntegrationEvent(event, now, event.machineName)).join('\n')
    return { json: { events }, text: text === '' ? 'no integration events yet' : text }
  } finally {
    project.close()
  }
}
