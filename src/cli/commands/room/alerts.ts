import { loadMachineId } from '../../../config/machine-id.ts'
import { openProject } from '../../../services/project-context.ts'
import { describeAlerts, loadAlerts } from '../../../services/room/alerts.ts'
import { claudeLiveSessions } from '../../../services/room/claude-live-sessions.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { alertsInput } from './inputs.ts'

export const run: CommandRun<typeof alertsInput> = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, { busyBudgetMs: readBusyBudgetMs })
  try {
    const alerts = loadAlerts(project.db, {
      machine: loadMachineId(ctx.env.sangamHome),
      worktrees: project.repo.worktrees,
      liveClaudeSessions: () => claudeLiveSessions(ctx.env.vendorCliEnv),
      now: ctx.clock.now(),
    })
    return { json: { alerts }, text: describeAlerts(alerts) }
  } finally {
    project.close()
  }
}
