import { openProject } from '../../../project/services/open-project.ts'
import { describeAlerts, loadAlerts } from '../../../room/services/alerts.ts'
import { collisionsLines, collisionsOnRead } from '../../../room/services/collisions-on-read.ts'
import { projectTargetsInput } from '../../../room/services/project-targets.ts'
import { systemRandom } from '../../../shared/random.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { alertsInput } from './inputs.ts'

export const run: CommandRun<typeof alertsInput> = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const collisions = await collisionsOnRead(project, { random: systemRandom })
    const alerts = await loadAlerts(project.db, projectTargetsInput(project))
    return {
      json: { alerts, collisions },
      text: [describeAlerts(alerts), ...collisionsLines(collisions)].join('\n'),
    }
  } finally {
    project.close()
  }
}
