import { shortSession } from '../../identity/core/session-id.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import { oneLine } from '../../shared/terminal-text.ts'

/**
 * Who a lease leaves alone. An actor is a path: human, then vendor, then session. A lease held at
 * some depth of that path covers everyone below it: a human's lease (taken from the CLI) covers
 * all that human's sessions; a lease held by "alice's Codex, session unknown" covers alice's Codex
 * sessions; a session's lease covers that session only, so a human's Claude Code and Codex
 * sessions exclude each other. Nobody else is covered, not even the human of a session.
 */
export function leaseCovers(holder: Actor, actor: Actor): boolean {
  if (holder.human !== actor.human) return false
  if (holder.vendor === null) return true
  if (holder.vendor !== actor.vendor) return false
  return holder.sessionId === null || holder.sessionId === actor.sessionId
}

export function isSameActor(a: Actor, b: Actor): boolean {
  return a.human === b.human && a.vendor === b.vendor && a.sessionId === b.sessionId
}

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
