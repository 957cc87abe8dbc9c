import { renderThread } from '../../services/memory-render.ts'
import { MemoryThread } from '../../services/memory-thread.ts'
import { openProject } from '../../services/project-context.ts'
import type { CommandSpec } from '../command.ts'

export const threadCommand: CommandSpec = {
  name: 'thread',
  summary: 'Show one moment in context: its human turn and what the agent did until the next',
  arguments: [{ name: 'event-id', description: 'an event id, as search prints it', required: true }],
  async run(ctx, args) {
    const project = openProject(ctx.env, ctx.cwd, ctx.clock)
    try {
      const result = new MemoryThread(project.db).thread(args[0] ?? '')
      return { json: result, text: renderThread(result, ctx.clock.now()) }
    } finally {
      project.close()
    }
  },
}
