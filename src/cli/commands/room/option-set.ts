import { resolveActor } from '../../../leases/services/actor.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { setProjectOption } from '../../../project/services/project-options.ts'
import type { CommandRun } from '../../command.ts'
import type { optionSetInput } from './inputs.ts'
import { optionLine } from './options.ts'

export const run: CommandRun<typeof optionSetInput> = async (ctx, { name, value }) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const option = setProjectOption(project.db, name, value, {
      actor: resolveActor(ctx.env, project.human),
      now: ctx.clock.now(),
    })
    return { json: { option }, text: optionLine(option) }
  } finally {
    project.close()
  }
}
