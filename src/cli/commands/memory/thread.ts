import { renderThread } from '../../../memory/services/render.ts'
import { MemoryThread } from '../../../memory/services/thread.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { threadInput } from './inputs.ts'

export const run: CommandRun<typeof threadInput> = async (ctx, { eventId }, options) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const result = new MemoryThread(project.db).thread(eventId, {
      before: options.before,
      after: options.after,
    })
    return { json: result, text: renderThread(result, ctx.clock.now()) }
  } finally {
    project.close()
  }
}
