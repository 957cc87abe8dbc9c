import type { RoomMessage } from '../../room/protocol/message.ts'
import type { SenderKind } from '../core/delivery-vocabulary.ts'

/** The senders that were sangam itself before messages carried their author (the daemon's `ready` posts). */
export const sangamSenders: readonly string[] = ['ready', 'sangam']

/**
 * Who a message is from, as the loop guard counts it: its author as the posting channel told it,
 * an agent whenever it names the session that posted it, whatever else it says; for a message that
 * says nothing (stored or pushed by an older sangam), sangam by its sender's name, else unknown,
 * which counts against the budget: a post that cannot be told to be a person's never resets it.
 */
export function senderKindOf(message: RoomMessage): SenderKind {
  if (message.session !== null) return 'agent'
  if (message.author !== 'unknown') return message.author
  return sangamSenders.includes(message.sender) ? 'sangam' : 'unknown'
}
