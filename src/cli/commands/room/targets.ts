import { loadMachineId } from '../../../config/machine-id.ts'
import { openProject } from '../../../services/project-context.ts'
import { claudeLiveSessions } from '../../../services/room/claude-live-sessions.ts'
import { describeTargets, loadTargets } from '../../../services/room/targets.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { targetsInput } from './inputs.ts'

export const run: CommandRun<typeof targetsInput> = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, { busyBudgetMs: readBusyBudgetMs })
  try {
    const machine = loadMachineId(ctx.env.sangamHome)
    const targets = loadTargets(project.db, {
      machine,
      worktrees: project.repo.worktrees,
      liveClaudeSessions: () => claudeLiveSessions(ctx.env.vendorCliEnv),
      now: ctx.clock.now(),
    })
    return { json: targets, text: describeTargets(targets, machine) }
  } finally {
    project.close()
  }
}
