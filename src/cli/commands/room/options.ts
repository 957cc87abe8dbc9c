import { openProject } from '../../../project/services/open-project.ts'
import { listProjectOptions, type ProjectOption } from '../../../project/services/project-options.ts'
import type { CommandRun } from '../../command.ts'
import type { optionsInput } from './inputs.ts'

export const run: CommandRun<typeof optionsInput> = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, { createStore: false })
  try {
    const options = listProjectOptions(project.db)
    return { json: { options }, text: options.map(optionLine).join('\n') }
  } finally {
    project.close()
  }
}

export function optionLine(option: ProjectOption): string {
  const origin = option.set ? `set; default ${JSON.stringify(option.default)}` : 'default'
  return `${option.name} = ${JSON.stringify(option.value)} (${origin}; ${option.type}): ${option.description}`
}
