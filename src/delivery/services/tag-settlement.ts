import type { Db } from '../../store/db.ts'
import type { DeliveryDecision, SessionAction } from '../core/delivery-decision.ts'
import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'
import { type DeliveryRow, moveDelivery } from '../store/delivery-ledger.ts'
import type { SessionKey } from './session-tags.ts'
import { pasteIntoPane } from './tmux-paste.ts'

/** The tags the guards refused, each with its reason; an unknown session of another machine is said so. */
export function refuseTags(
  db: Db,
  session: SessionKey,
  refused: DeliveryDecision['refused'],
  remote: boolean,
  now: number,
): void {
  for (const refusal of refused) {
    moveDelivery(
      db,
      { messageId: refusal.messageId, ...session },
      ['pending'],
      {
        state: 'refused',
        reason:
          remote && refusal.reason === 'unknown-session'
            ? 'the session lives on another machine'
            : refusal.reason,
      },
      now,
    )
  }
}

/**
 * The carried tags of a decision that starts no turn, moved in the ledger: still pending with why
 * (wait), refused, failed (no CLI), or pasted into the session's tmux pane. Answers the problem to
 * report, or null.
 */
export function settleTags(
  db: Db,
  rows: readonly DeliveryRow[],
  action: Exclude<SessionAction, { readonly kind: 'start' }>,
  context: {
    readonly vendor: DeliveryVendor
    readonly prompt: string
    readonly env: Readonly<Record<string, string>>
    readonly now: number
  },
): string | null {
  const { now } = context
  switch (action.kind) {
    case 'none':
      return null
    case 'wait':
      for (const row of rows) {
        if (row.reason !== action.reason || row.channel !== action.channel)
          moveDelivery(
            db,
            row,
            ['pending'],
            { state: 'pending', channel: action.channel, reason: action.reason },
            now,
          )
      }
      return null
    case 'refuse':
      for (const row of rows)
        moveDelivery(db, row, ['pending'], { state: 'refused', reason: action.reason }, now)
      return action.reason
    case 'fail': {
      const why = `the ${context.vendor} CLI was not found on PATH or in the usual places (~/.local/bin, /usr/local/bin, /opt/homebrew/bin, npm's global bin)`
      for (const row of rows) moveDelivery(db, row, ['pending'], { state: 'failed', reason: why }, now)
      return why
    }
    case 'paste': {
      const problem = pasteIntoPane(action.pane, context.prompt, context.env)
      for (const row of rows)
        moveDelivery(
          db,
          row,
          ['pending'],
          problem === null
            ? {
                state: 'delivered',
                channel: 'tmux-paste',
                reason: `pasted into tmux pane ${action.pane}, Enter not pressed`,
              }
            : { state: 'pending', channel: 'next-prompt', reason: problem },
          now,
        )
      return problem
    }
  }
}
