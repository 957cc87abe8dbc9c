import { describeWhoHas, whoHas } from '../../../services/leases/who-has.ts'
import { openProject } from '../../../services/project-context.ts'
import type { CommandRun } from '../../command.ts'

export const run: CommandRun = async (ctx, args) => {
  const arg = args[0] ?? ''
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const outcome = whoHas(project, arg, ctx.cwd)
    return { json: outcome, text: describeWhoHas(outcome, arg, ctx.clock.now()) }
  } finally {
    project.close()
  }
}
