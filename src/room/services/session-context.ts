import type { Db } from '../../store/db.ts'
import { type HeldTransaction, holdTransaction } from '../../store/held-transaction.ts'
import { alertContext } from '../core/alert-context.ts'
import { type RoomContext, roomContext } from '../core/room-context.ts'
import { type ContextSession, sessionAddresses } from '../core/session-addresses.ts'
import { recordShownAlerts, shownAlertIds } from '../store/context-alert-table.ts'
import { advanceContextCursor, readContextCursor } from '../store/context-cursor-table.ts'
import { addressedMessages } from '../store/message-table.ts'
import { loadDirectory } from './directory.ts'
import { loadLoudRuleAlerts } from './rule-alerts.ts'

export interface SessionContextInput extends ContextSession {
  /** This machine's worktrees of the project (the hook's located layout: no git spawned). */
  readonly worktrees: readonly string[]
  readonly budget: number
  readonly now: number
  /**
   * Which of these messages a turn started for the session carries in its own prompt (delivery's
   * ledger, given by the caller: the room does not know delivery). They are not shown again.
   */
  readonly carried?: ((messageIds: readonly string[]) => ReadonlySet<string>) | undefined
}

/** The context, and the decision the caller owes once its answer is out. */
export interface PendingContext extends RoomContext {
  /**
   * `true` once the answer carrying `text` was written: the cursor move commits. `false` (the
   * answer never went out): it rolls back, and the messages come again next time.
   */
  settle(delivered: boolean): void
}

/** A session's first context looks back this far (by the poster's clock), not at the whole log. */
export const firstContextWindowMs = 24 * 60 * 60_000

/** The house rules' alerts take at most this share of the budget; the messages have the rest. */
const alertShare = 1 / 3

/** Read at most this many messages to fill the budget; the count covers the rest. */
const fetchLimit = 60

/**
 * The room's messages for one agent session that it has not been shown, and the house rules'
 * conditions at `warn` or `refuse` it has not been told of (a rule at `warn` is carried into every
 * session's context), read and marked shown in one write transaction that stays open until
 * `settle`: at least once, never lost. A hook killed
 * before it answered leaves the cursor where it was; a repeat needs the hook killed between
 * writing its answer and committing, the one moment the host may or may not have read it.
 * The cursor moves past every message that reached this replica, shown or not, addressed or not:
 * the closing "N more" line says how to read what the budget left out.
 */
export function takeSessionContext(
  db: Db,
  input: SessionContextInput,
  /** A transaction the caller already holds (the Stop hook's hand-over reads in it first). */
  held: HeldTransaction = holdTransaction(db),
): PendingContext {
  try {
    const directory = loadDirectory(db, { machine: input.machine, worktrees: input.worktrees })
    const addresses = sessionAddresses(directory, input)
    const cursor = readContextCursor(db, input.vendor, input.sessionId)
    const found = addressedMessages(db, {
      afterSeq: cursor?.seenSeq ?? 0,
      since: cursor === null ? input.now - firstContextWindowMs : 0,
      vendor: input.vendor,
      sessionId: input.sessionId,
      tokens: addresses,
      limit: fetchLimit,
    })
    const carried = input.carried?.(found.messages.map((message) => message.id)) ?? new Set<string>()
    const shown = found.messages.filter((message) => !carried.has(message.id))
    const shownBefore = shownAlertIds(db, input.vendor, input.sessionId)
    const alerts = alertContext(
      loadLoudRuleAlerts(db, directory, input.now).filter((alert) => !shownBefore.has(alert.id)),
      Math.floor(input.budget * alertShare),
    )
    if (alerts.shown.length > 0)
      recordShownAlerts(
        db,
        { vendor: input.vendor, sessionId: input.sessionId, ids: alerts.shown },
        input.now,
      )
    const messages = roomContext({
      messages: shown,
      total: found.total - (found.messages.length - shown.length),
      addresses,
      budget: alerts.text === '' ? input.budget : input.budget - alerts.text.length - 2,
    })
    const context: RoomContext = {
      ...messages,
      text: [alerts.text, messages.text].filter((part) => part !== '').join('\n\n'),
    }
    if (cursor === null || found.lastSeq > cursor.seenSeq) {
      advanceContextCursor(db, {
        vendor: input.vendor,
        sessionId: input.sessionId,
        seenSeq: found.lastSeq,
        updatedAt: input.now,
      })
    }
    return {
      ...context,
      settle: (delivered) => (delivered ? held.commit() : held.rollback()),
    }
  } catch (error) {
    held.rollback()
    throw error
  }
}
