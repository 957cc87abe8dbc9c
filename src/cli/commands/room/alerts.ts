import { openProject } from '../../../services/project-context.ts'
import { describeAlerts, loadAlerts } from '../../../services/room/alerts.ts'
import { projectTargetsInput } from '../../../services/room/project-targets.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { alertsInput } from './inputs.ts'

export const run: CommandRun<typeof alertsInput> = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const alerts = loadAlerts(project.db, projectTargetsInput(project))
    return { json: { alerts }, text: describeAlerts(alerts) }
  } finally {
    project.close()
  }
}
