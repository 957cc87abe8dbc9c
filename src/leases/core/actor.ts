import type { Actor } from '../../identity/protocol/actor.ts'

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
