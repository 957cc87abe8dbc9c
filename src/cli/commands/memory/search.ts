import { renderSearch } from '../../../memory/services/render.ts'
import { MemorySearch } from '../../../memory/services/search.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'
import type { searchInput } from './inputs.ts'

export const run: CommandRun<typeof searchInput> = async (ctx, { query }, options) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const result = new MemorySearch(project.db, ctx.clock).search({
      text: query.join(' '),
      vendor: options.vendor,
      kinds: options.kind,
      sessionId: options.session,
      branch: options.branch,
      since: options.since,
      until: options.until,
      limit: options.limit,
    })
    return { json: result, text: renderSearch(result, ctx.clock.now()) }
  } finally {
    project.close()
  }
}
