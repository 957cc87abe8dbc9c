import { renderThread } from '../../../services/memory/render.ts'
import { MemoryThread } from '../../../services/memory/thread.ts'
import { openProject } from '../../../services/project-context.ts'
import type { CommandRun } from '../../command.ts'

export const run: CommandRun = async (ctx, args) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const result = new MemoryThread(project.db).thread(args[0] ?? '')
    return { json: result, text: renderThread(result, ctx.clock.now()) }
  } finally {
    project.close()
  }
}
