import { readOptionGroup } from '../../options/services/option-store.ts'
import { roomOptions } from '../../room/core/settings.ts'
import { loadDirectory } from '../../room/services/directory.ts'
import {
  firstContextWindowMs,
  type SessionContextInput,
  takeSessionContext,
} from '../../room/services/session-context.ts'
import { readContextCursor } from '../../room/store/context-cursor-table.ts'
import { addressedMessages } from '../../room/store/message-table.ts'
import type { Db } from '../../store/db.ts'
import { holdTransaction } from '../../store/held-transaction.ts'
import { addDelivery, carriedToSession, deliveryOf, moveDelivery } from '../store/delivery-ledger.ts'
import { agentTurnsSinceHuman, insertTurn } from '../store/delivery-turn-table.ts'
import { senderKindOf } from './sender-kind.ts'

/** The Stop hook's hand-over: the reason its answer blocks the stop with, and the commit it owes. */
export interface HandOver {
  readonly reason: string
  /** How many tags triggered it. */
  readonly tags: number
  /** `true` once the answer is out: the cursor, the ledger rows and the turn record commit together. */
  settle(delivered: boolean): void
}

export interface HandOverInput extends SessionContextInput {
  /** The owner recorded on the hand-over's turn row (the hook's own process). */
  readonly pid: number
}

/**
 * When a session's turn ends (Stop) and messages tagging it (its `@handle`, or its worktree's
 * `#target`) arrived that it has not been shown, it is kept going once with them: the hook answers
 * `decision: "block"` with the room's context as the reason. Not when the room's policy is `off`,
 * not for sangam's own messages or the session's own, not past the loop budget when only agents
 * tagged it. Messages to the whole room alone never block a stop: they wait for the next prompt.
 * Null when there is nothing to hand over; the caller then answers as before.
 *
 * The read, the context cursor, the ledger's rows (`hand-over`, delivered) and the turn record are
 * one held transaction, committed only after the answer is written: a hook killed before that
 * hands the same messages over next time, and the daemon never starts a second turn for them.
 */
export function takeHandOver(db: Db, input: HandOverInput): HandOver | null {
  const held = holdTransaction(db)
  try {
    const settings = readOptionGroup(db, roomOptions)
    if (settings.wakeOnTag === 'off') {
      held.rollback()
      return null
    }
    const directory = loadDirectory(db, { machine: input.machine, worktrees: input.worktrees })
    const agent = directory.agents.find((a) => a.vendor === input.vendor && a.sessionId === input.sessionId)
    const mine = [
      ...(agent === undefined ? [] : [`@${agent.handle}`]),
      ...directory.worktrees
        .filter((worktree) => worktree.path === input.worktree && worktree.machine === input.machine)
        .map((worktree) => `#${worktree.target}`),
    ]
    const cursor = readContextCursor(db, input.vendor, input.sessionId)
    const found = addressedMessages(db, {
      afterSeq: cursor?.seenSeq ?? 0,
      since: cursor === null ? input.now - firstContextWindowMs : 0,
      vendor: input.vendor,
      sessionId: input.sessionId,
      tokens: mine,
      limit: 200,
    })
    const tags = found.messages.filter(
      (message) =>
        message.recipients.some((token) => mine.includes(token)) &&
        senderKindOf(message) !== 'sangam' &&
        !['delivered', 'starting'].includes(
          deliveryOf(db, message.id, input.vendor, input.sessionId)?.state ?? '',
        ),
    )
    const human = tags.some((message) => senderKindOf(message) === 'human')
    const spent = agentTurnsSinceHuman(db, input.vendor, input.sessionId) >= settings.deliveryLoopBudget
    if (tags.length === 0 || (!human && spent)) {
      held.rollback()
      return null
    }
    const context = takeSessionContext(
      db,
      { ...input, carried: (ids) => carriedToSession(db, input, ids) },
      held,
    )
    const turnId = insertTurn(
      db,
      {
        vendor: input.vendor,
        sessionId: input.sessionId,
        channel: 'hand-over',
        cause: human ? 'human' : 'agent',
        why: 'hand-over',
        messages: tags.map((message) => message.id),
        state: 'ended',
        ownerPid: input.pid,
        ownerStart: null,
        worktree: input.worktree,
      },
      input.now,
    )
    for (const message of tags) {
      const row = {
        messageId: message.id,
        vendor: input.vendor,
        sessionId: input.sessionId,
      }
      const change = { state: 'delivered' as const, channel: 'hand-over' as const, reason: null, turnId }
      if (!moveDelivery(db, row, ['pending'], change, input.now)) {
        addDelivery(
          db,
          {
            ...row,
            state: 'delivered',
            channel: 'hand-over',
            reason: null,
            sender: message.sender,
            senderKind: senderKindOf(message),
            mode: message.recipients.includes(mine[0] ?? '') ? 'handle' : 'worktree',
          },
          input.now,
        )
        moveDelivery(db, row, ['delivered'], change, input.now)
      }
    }
    const reason = [
      `sangam: ${tags.length === 1 ? 'a message tagging you' : `${tags.length} messages tagging you`} arrived during this turn. ` +
        'Read them and act on them before you stop; re-observe the repository first (it may have changed), and answer in the room when useful.',
      context.text,
    ]
      .filter((part) => part !== '')
      .join('\n\n')
    return { reason, tags: tags.length, settle: context.settle }
  } catch (error) {
    held.rollback()
    throw error
  }
}
