import { loadMachineId } from '../../config/machine-id.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import { roomOptions } from '../../room/core/settings.ts'
import { post } from '../../room/services/post.ts'
import type { RoomScope } from '../../room/services/room-scope.ts'
import type { SendResult } from '../protocol/session-view.ts'
import { addDelivery } from '../store/delivery-ledger.ts'
import { lastTurnAt } from '../store/delivery-turn-table.ts'
import type { DeliveryRouter, SessionOutcome } from './delivery-router.ts'
import { senderKindOf } from './sender-kind.ts'
import { resolveSession, type SessionView } from './session-list.ts'
import { turnView } from './session-turns.ts'

export type { SendResult } from '../protocol/session-view.ts'

/**
 * `send <session> TEXT`: posts the text to the room addressed to the session (so the room sees
 * it), records it in the ledger as a `send` in the same transaction, and weighs the session at
 * once with the same guards a tag has (no echo, one turn at a time, the cooldown, the loop budget
 * for agents), the room's policy aside: the caller asked for this turn. A session open in a
 * terminal is refused (`active-elsewhere`), never resumed beside it. A session of another machine
 * is reached through that machine's daemon (`forwarded`).
 */
export async function sendToSession(
  project: ProjectContext,
  scope: RoomScope,
  router: DeliveryRouter,
  input: { readonly session: string; readonly text: string },
): Promise<SendResult> {
  const view = resolveSession(project, router, input.session)
  if (view.delivery === 'remote' || view.machine !== loadMachineId(project.env.sangamHome))
    return forwardToMachine(project, scope, view, input.text)
  const message = project.db
    .transaction(() => {
      const posted = post(scope, {
        text: input.text,
        to: [`@${view.handle}`],
        kind: 'message',
        topic: null,
        threadId: null,
      })
      addDelivery(
        project.db,
        {
          messageId: posted.id,
          vendor: view.vendor,
          sessionId: view.id,
          state: 'pending',
          channel: null,
          reason: 'send',
          sender: posted.sender,
          senderKind: senderKindOf(posted),
          mode: 'send',
        },
        project.clock.now(),
      )
      return posted
    })
    .immediate()
  const outcome = await router.weighSession({ vendor: view.vendor, sessionId: view.id })
  const sent = sendResult(message.id, view, outcome)
  if (sent.outcome !== 'pending' || sent.reason !== 'cooldown') return sent
  const last = lastTurnAt(project.db, view.vendor, view.id)
  const cooldownMs = readOptionGroup(project.db, roomOptions).deliveryCooldown * 1000
  return { ...sent, retryAt: last === null ? null : new Date(last + cooldownMs).toISOString() }
}

/**
 * `send` to a session of another machine: the text is posted tagging it, and the daemon on its
 * machine delivers it as it delivers any tag (docs/room.md, "Delivery"), under the room's policy;
 * this machine starts nothing. The answer says which machine and what the policy means for it.
 */
function forwardToMachine(
  project: ProjectContext,
  scope: RoomScope,
  view: SessionView,
  text: string,
): SendResult {
  const posted = post(scope, { text, to: [`@${view.handle}`], kind: 'message', topic: null, threadId: null })
  const policy = readOptionGroup(project.db, roomOptions).wakeOnTag
  return {
    messageId: posted.id,
    session: { vendor: view.vendor, id: view.id },
    outcome: 'forwarded',
    channel: null,
    reason:
      policy === 'off'
        ? `posted tagging @${view.handle}; it lives on ${view.machineName}, and with room.wake-on-tag off it sees it at its next prompt there`
        : `posted tagging @${view.handle}; the daemon on ${view.machineName}, where it lives, delivers it`,
    retryAt: null,
    turn: null,
  }
}

function sendResult(messageId: string, view: SessionView, outcome: SessionOutcome): SendResult {
  const base = { messageId, session: { vendor: view.vendor, id: view.id }, retryAt: null }
  const refused = outcome.decision.refused.find((entry) => entry.messageId === messageId)
  if (refused !== undefined)
    return { ...base, outcome: 'refused', channel: null, reason: refused.reason, turn: null }
  const action = outcome.decision.action
  const turn = outcome.turn === null ? null : turnView(outcome.turn)
  switch (action.kind) {
    case 'start':
      if (outcome.turn === null)
        return { ...base, outcome: 'pending', channel: action.channel, reason: outcome.problem, turn: null }
      if (outcome.turn.state === 'failed')
        return { ...base, outcome: 'failed', channel: action.channel, reason: outcome.turn.detail, turn }
      return { ...base, outcome: 'started', channel: action.channel, reason: null, turn }
    case 'wait':
      return { ...base, outcome: 'pending', channel: action.channel, reason: action.reason, turn: null }
    case 'paste':
      return {
        ...base,
        outcome: outcome.problem === null ? 'pasted' : 'pending',
        channel: 'tmux-paste',
        reason: outcome.problem,
        turn: null,
      }
    case 'refuse':
      return { ...base, outcome: 'refused', channel: null, reason: action.reason, turn: null }
    case 'fail':
      return { ...base, outcome: 'failed', channel: null, reason: outcome.problem, turn: null }
    case 'none':
      return { ...base, outcome: 'refused', channel: null, reason: 'nothing to deliver', turn: null }
  }
}
