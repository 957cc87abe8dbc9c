import { listDeliveries } from '../../../delivery/services/delivery-list.ts'
import { oneLine } from '../../../shared/terminal-text.ts'
import type { CommandRun } from '../../command.ts'
import { withDelivery } from './delivery-command.ts'
import type { deliveriesInput } from './inputs.ts'

export const run: CommandRun<typeof deliveriesInput> = (ctx, _args, options) =>
  withDelivery(
    ctx,
    async (project, router) => {
      // Without --deliver nothing is delivered, but turns whose process has gone are still marked
      // ended: with no daemon running nobody else would, and the ledger would say `running`.
      if (options.deliver) await router.look()
      else router.sweep()
      const ledger = listDeliveries(project, router, {
        limit: options.limit ?? 50,
        session: options.session ?? null,
      })
      const rows = ledger.deliveries.map(
        (row) =>
          `${row.updatedAt.slice(0, 19).replace('T', ' ')}  ${oneLine(row.messageId)} → ${row.vendor} ${oneLine(row.sessionId)}  ${row.state}${row.channel === null ? '' : ` via ${oneLine(row.channel)}`}${row.reason === null ? '' : ` (${oneLine(row.reason)})`}`,
      )
      const turns = ledger.turns.map(
        (turn) =>
          `turn ${turn.id}  ${turn.startedAt.slice(0, 19).replace('T', ' ')}  ${turn.vendor} ${oneLine(turn.sessionId)}  ${oneLine(turn.channel)}  ${turn.state}  why ${turn.why} (${turn.cause}), ${turn.messages.length} message${turn.messages.length === 1 ? '' : 's'}`,
      )
      const text = [
        rows.length === 0 ? 'no deliveries yet' : `deliveries:\n${rows.join('\n')}`,
        turns.length === 0 ? 'no turns started' : `turns (each one a cost):\n${turns.join('\n')}`,
      ].join('\n\n')
      return { json: ledger, text: `${text}\n` }
    },
    { createStore: false },
  )
