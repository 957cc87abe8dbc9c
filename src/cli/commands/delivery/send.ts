import { sendToSession } from '../../../services/delivery/delivery-use-cases.ts'
import { ErrorCode } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import { exitCodes } from '../../exit-codes.ts'
import { withDelivery } from './delivery-command.ts'
import type { sendInput } from './inputs.ts'

export const run: CommandRun<typeof sendInput> = (ctx, args) =>
  withDelivery(ctx, async (project, router, scope) => {
    const sent = await sendToSession(project, scope, router, {
      session: args.session,
      text: args.text.join(' '),
    })
    const where = `${sent.session.vendor} session ${sent.session.id}`
    const text =
      sent.outcome === 'started'
        ? `turn ${sent.turn?.id} started in ${where} (${sent.channel}); output: ${sent.turn?.logFile ?? 'in the session'}`
        : sent.outcome === 'pending'
          ? `posted ${sent.messageId}; ${where} gets it later (${sent.reason}${sent.channel === null ? '' : `, then ${sent.channel}`})`
          : sent.outcome === 'pasted'
            ? `pasted into ${where}'s tmux pane (Enter not pressed)`
            : `not delivered to ${where}: ${sent.outcome}, ${sent.reason}`
    // Refused (a guard) or failed (the vendor CLI): the expected "no" of send, like a refused claim.
    const no =
      sent.outcome === 'refused'
        ? exitCodes[ErrorCode.InvalidInput]
        : exitCodes[ErrorCode.VendorCliUnavailable]
    return {
      json: sent,
      text: `${text}\n`,
      exitCode: sent.outcome === 'refused' || sent.outcome === 'failed' ? no : 0,
    }
  })
