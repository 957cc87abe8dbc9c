import { oneLine } from '../../shared/terminal-text.ts'
import type { Actor } from '../protocol/actor.ts'
import { shortSession } from './session-id.ts'

/** A stable text key, as the brief cursor uses: `human:<name>`, `<vendor>:<session>`, `<vendor>:?:<name>`. */
export function actorKey(actor: Actor): string {
  if (actor.vendor === null) return `human:${actor.human}`
  if (actor.sessionId === null) return `${actor.vendor}:?:${actor.human}`
  return `${actor.vendor}:${actor.sessionId}`
}

/** How an actor is named to people: `alice@x.dev`, `alice@x.dev's claude session 1a2b3c4d`. */
export function describeActor(actor: Actor): string {
  // A teammate's name is any text the team server carried: it stays on this line (D290).
  const human = oneLine(actor.human)
  if (actor.vendor === null) return human
  if (actor.sessionId === null) return `${human}'s ${oneLine(actor.vendor)} session (unidentified)`
  return `${human}'s ${oneLine(actor.vendor)} session ${oneLine(shortSession(actor.sessionId))}`
}
