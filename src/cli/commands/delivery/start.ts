import { startSession } from '../../../delivery/services/session-turns.ts'
import { systemRandom } from '../../../shared/random.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import { withDelivery } from './delivery-command.ts'
import type { startInput } from './inputs.ts'

export const run: CommandRun<typeof startInput> = (ctx, args, options) =>
  withDelivery(ctx, async (project, router, scope) => {
    if (options.vendor === undefined)
      throw new SangamError(ErrorCode.Usage, 'start needs --vendor claude, codex or gemini')
    const { turn } = await startSession(project, router, {
      vendor: options.vendor,
      worktree: options.worktree ?? null,
      cwd: ctx.cwd,
      text: args.text.join(' '),
      sender: scope.poster.sender,
      random: systemRandom,
    })
    return {
      json: { turn },
      text: `started a ${turn.vendor} session ${turn.sessionId} in ${turn.worktree} (turn ${turn.id}); output: ${turn.logFile}\n`,
    }
  })
