import type { AuthorKind } from '../../room/protocol/message.ts'
import { type DeliveryVendor, deliveryVendors } from '../protocol/delivery-vendor.ts'

/**
 * The words of delivery, shared by the core, the store, the services and the commands: how a tag
 * reached a session (its channel) and where each (message, session) stands in the ledger. Which
 * tags wake a session is a room option (`room/protocol/wake-on-tag.ts`).
 */

/**
 * How a message reached (or is to reach) a session:
 * - `hand-over`: the session's Stop hook kept its turn going with the message;
 * - `wake`: a turn started in the live session (Codex through `sangam codex`'s app-server);
 * - `queue`: `codex queue --thread <id> --message … --resume` (the vendor's own queue);
 * - `background`: `claude --bg --resume <id>` (the vendor's own background session);
 * - `resume`: a headless turn, `claude --print --resume <id>` / `codex exec resume <id> -` /
 *   `gemini --resume <id>` (each with the prompt on stdin);
 * - `next-prompt`: the room's context at the session's next prompt (it is open in a terminal);
 * - `tmux-paste`: pasted into the session's tmux pane, Enter never pressed;
 * - `new`: a new headless session (`sangam start`).
 */
export const deliveryChannels = [
  'hand-over',
  'wake',
  'queue',
  'background',
  'resume',
  'next-prompt',
  'tmux-paste',
  'new',
] as const
export type DeliveryChannel = (typeof deliveryChannels)[number]

/** The channels that start (or extend) a turn, so cost tokens: each is a row of `delivery_turn`. */
export const turnChannels: readonly DeliveryChannel[] = [
  'hand-over',
  'wake',
  'queue',
  'background',
  'resume',
  'new',
]

/**
 * A (message, session) row of the ledger:
 * - `pending`: not yet; it waits for a guard (a turn running, the cooldown) or for the session's
 *   next prompt (`next-prompt`);
 * - `starting`: a turn is being started for it (written before the spawn);
 * - `delivered`: a turn carried it, or the session was shown it;
 * - `refused`: a guard said never (policy, echo, sangam's own, the loop budget, open elsewhere…);
 * - `failed`: the vendor CLI was missing or failed;
 * - `unknown`: the process starting its turn died before it could say whether it started.
 */
export const deliveryStates = ['pending', 'starting', 'delivered', 'refused', 'failed', 'unknown'] as const
export type DeliveryState = (typeof deliveryStates)[number]

export { type DeliveryVendor, deliveryVendors } from '../protocol/delivery-vendor.ts'

export function isDeliveryVendor(value: unknown): value is DeliveryVendor {
  return typeof value === 'string' && (deliveryVendors as readonly string[]).includes(value)
}

/**
 * Who a message came from, as the loop guard counts it: the message's author (room/protocol/
 * message.ts). Only `human` resets the budget; `agent` and `unknown` count against it; `sangam`'s
 * own messages never start a turn.
 */
export type SenderKind = AuthorKind
