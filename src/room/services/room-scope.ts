import type { Actor } from '../../identity/protocol/actor.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Random } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import type { RoomDirectory } from '../core/directory.ts'
import { humanToken } from '../protocol/human-token.ts'
import type { AuthorKind } from '../protocol/message.ts'
import type { GitContext } from './git-context.ts'

/** Who is posting: their handle or name (the message's `sender`), the actor, and where they stand. */
export interface Poster {
  readonly sender: string
  readonly actor: Actor
  /** Who is typing, as the channel could tell (`room/core/post-author.ts`): the message's author. */
  readonly author: AuthorKind
  readonly git: GitContext
  /**
   * false for a poster that is not a participant of what it opens or posts into: the daemon's
   * `ready`, whose conflict threads belong to the worktrees it tags.
   */
  readonly joins?: boolean | undefined
}

/** What the room's use cases work with: the replica, time, ids, the directory and the caller. */
export interface RoomScope {
  readonly db: Db
  readonly clock: Clock
  readonly random: Random
  readonly directory: RoomDirectory
  readonly poster: Poster
}

/**
 * The poster's name in the room: an agent session's handle as the directory knows it (presence
 * gives every session one), else one derived from its vendor and session id; a human acts under
 * their own name.
 */
export function senderName(directory: RoomDirectory, actor: Actor): string {
  if (actor.vendor === null) return actor.human
  if (actor.sessionId === null) return `${actor.vendor}-of-${actor.human}`
  const known = directory.agents.find(
    (agent) => agent.vendor === actor.vendor && agent.sessionId === actor.sessionId,
  )
  return known?.handle ?? `${actor.vendor}-${actor.sessionId.slice(0, 8)}`
}

/** The poster as a participant token: an agent by its handle, a human as `@human`. */
export function posterToken(poster: Poster): string {
  return poster.actor.vendor === null ? humanToken : `@${poster.sender}`
}
