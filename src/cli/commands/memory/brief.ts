import { resolveActor } from '../../../leases/services/actor.ts'
import { MemoryBrief } from '../../../memory/services/memory-brief.ts'
import { briefSections } from '../../../project/services/brief-sections.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'

export const run: CommandRun = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const reader = resolveActor(ctx.env, project.human)
    const brief = new MemoryBrief(project.db, ctx.clock, briefSections).brief({ reader, cwd: ctx.cwd })
    return { json: brief, text: brief.text }
  } finally {
    project.close()
  }
}
