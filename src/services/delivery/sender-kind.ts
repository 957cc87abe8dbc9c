import type { SenderKind } from '../../core/delivery/delivery-vocabulary.ts'
import type { RoomMessage } from '../../protocol/room/message.ts'

/** The senders that are sangam itself (the daemon's `ready` posts): never delivered as turns. */
export const sangamSenders: readonly string[] = ['ready', 'sangam']

/** Who a message is from, as the loop guard counts it: an agent session, sangam itself, or a human. */
export function senderKindOf(message: RoomMessage): SenderKind {
  if (message.session !== null) return 'agent'
  return sangamSenders.includes(message.sender) ? 'sangam' : 'human'
}
