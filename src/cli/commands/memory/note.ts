import { version } from '../../../config/version.ts'
import { currentBranch } from '../../../git/branch.ts'
import { resolveActor } from '../../../leases/services/actor.ts'
import { MemoryNote } from '../../../memory/services/note.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { oneLine } from '../../../shared/terminal-text.ts'
import type { CommandRun } from '../../command.ts'
import type { noteInput } from './inputs.ts'

export const run: CommandRun<typeof noteInput> = async (ctx, args) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const note = new MemoryNote(project.db, ctx.clock).write({
      text: args.text.join(' '),
      actor: resolveActor(ctx.env, project.human),
      cwd: ctx.cwd,
      branch: currentBranch(ctx.cwd),
      version,
    })
    const by = oneLine(note.sessionId === 'cli' ? note.author : `${note.author}, session ${note.sessionId}`)
    return { json: note, text: `noted ${note.id} (${by})` }
  } finally {
    project.close()
  }
}
