import { loadMachineId } from '../../../config/machine-id.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { type IdentifyOutcome, identifySession } from '../../../room/services/identify.ts'
import { type MachineRename, renameMachine } from '../../../room/services/machine-names.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import type { identifyInput } from './inputs.ts'

export const run: CommandRun<typeof identifyInput> = async (ctx, { session, handle }, options) => {
  if (options.machine === undefined && (session === undefined || handle === undefined))
    throw new SangamError(
      ErrorCode.Usage,
      'identify takes a session and the handle to claim (sangam identify <session> <handle>), or --machine <name>',
    )
  if (session !== undefined && handle === undefined)
    throw new SangamError(ErrorCode.Usage, `identify ${session} needs the handle to claim after it`)
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    let machine: MachineRename | null = null
    if (options.machine !== undefined)
      machine = renameMachine(
        project.db,
        ctx.env.sangamHome,
        { name: options.machine, human: project.human },
        ctx.clock.now(),
      )
    let outcome: IdentifyOutcome | null = null
    if (session !== undefined && handle !== undefined)
      outcome = identifySession(project.db, session, handle, ctx.clock.now(), {
        here: { machine: loadMachineId(ctx.env.sangamHome), worktrees: project.repo.worktrees },
      })
    const lines: string[] = []
    if (machine !== null)
      lines.push(
        machine.previous === machine.name
          ? `This machine is "${machine.name}" to the team.`
          : `This machine is now "${machine.name}" to the team (was "${machine.previous}"); every view shows it so.`,
      )
    if (outcome !== null) {
      const { agent } = outcome
      lines.push(
        agent.previous === agent.handle
          ? `@${agent.handle} is the ${agent.vendor} session ${agent.sessionId}'s handle, claimed.`
          : `@${agent.previous} is now @${agent.handle} (${agent.vendor} session ${agent.sessionId}); the handle stays through role changes.`,
      )
    }
    return { json: { ...outcome, ...(machine === null ? {} : { machine }) }, text: lines.join('\n') }
  } finally {
    project.close()
  }
}
