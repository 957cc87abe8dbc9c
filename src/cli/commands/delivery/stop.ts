import { stopSession } from '../../../delivery/services/session-turns.ts'
import type { CommandRun } from '../../command.ts'
import { withDelivery } from './delivery-command.ts'
import type { stopInput } from './inputs.ts'

export const run: CommandRun<typeof stopInput> = (ctx, args) =>
  withDelivery(ctx, (project, router) => {
    const { turn } = stopSession(project, router, args.session)
    return {
      json: { turn },
      text: `stopped turn ${turn.id} of ${turn.vendor} session ${turn.sessionId} (pid ${turn.pid})\n`,
    }
  })
