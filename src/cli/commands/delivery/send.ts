import { describeSend } from '../../../delivery/services/send-summary.ts'
import { sendToSession } from '../../../delivery/services/send-to-session.ts'
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
    // Refused (a guard) or failed (the vendor CLI): the expected "no" of send, like a refused claim.
    const no =
      sent.outcome === 'refused'
        ? exitCodes[ErrorCode.InvalidInput]
        : exitCodes[ErrorCode.VendorCliUnavailable]
    return {
      json: sent,
      text: `${describeSend(sent)}\n`,
      exitCode: sent.outcome === 'refused' || sent.outcome === 'failed' ? no : 0,
    }
  })
