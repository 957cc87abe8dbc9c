import { openProject } from '../../../services/project-context.ts'
import { identifySession } from '../../../services/room/identify.ts'
import type { CommandRun } from '../../command.ts'
import type { identifyInput } from './inputs.ts'

export const run: CommandRun<typeof identifyInput> = async (ctx, { session, handle }) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const outcome = identifySession(project.db, session, handle, ctx.clock.now())
    const { agent } = outcome
    const text =
      agent.previous === agent.handle
        ? `@${agent.handle} is the ${agent.vendor} session ${agent.sessionId}'s handle, claimed.`
        : `@${agent.previous} is now @${agent.handle} (${agent.vendor} session ${agent.sessionId}); the handle stays through role changes.`
    return { json: outcome, text }
  } finally {
    project.close()
  }
}
