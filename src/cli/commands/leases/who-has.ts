import { describeWhoHas, whoHas } from '../../../leases/services/who-has.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { whoHasInput } from './inputs.ts'

export const run: CommandRun<typeof whoHasInput> = async (ctx, { path: arg }) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const outcome = whoHas(project, arg, ctx.cwd)
    return { json: outcome, text: describeWhoHas(outcome, arg, ctx.clock.now()) }
  } finally {
    project.close()
  }
}
