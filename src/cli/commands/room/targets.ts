import { openProject } from '../../../project/services/open-project.ts'
import { projectTargetsInput } from '../../../room/services/project-targets.ts'
import { describeTargets, loadTargets } from '../../../room/services/targets.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { targetsInput } from './inputs.ts'

export const run: CommandRun<typeof targetsInput> = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const input = projectTargetsInput(project)
    const targets = await loadTargets(project.db, input)
    return { json: targets, text: describeTargets(targets, input.machine) }
  } finally {
    project.close()
  }
}
