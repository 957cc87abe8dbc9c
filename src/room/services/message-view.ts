import type { RoomMessage } from '../protocol/message.ts'
import type { RoomThread } from '../protocol/thread.ts'

/** A message as `post` and `read` print it (`--json`) and the MCP tools return it: the contract's fields. */
export interface MessageView {
  readonly id: string
  readonly kind: RoomMessage['kind']
  readonly topic: string | null
  readonly text: string
  readonly sender: string
  /** Who wrote it, as its channel could tell: human, agent, sangam or unknown (docs/room.md, Delivery). */
  readonly author: RoomMessage['author']
  readonly recipients: readonly string[]
  readonly threadId: string | null
  readonly at: number
  readonly worktree: string | null
  readonly branch: string | null
  readonly head: string | null
}

export function messageView(message: RoomMessage): MessageView {
  return {
    id: message.id,
    kind: message.kind,
    topic: message.topic,
    text: message.text,
    sender: message.sender,
    author: message.author,
    recipients: message.recipients,
    threadId: message.threadId,
    at: message.at,
    worktree: message.worktree,
    branch: message.branch,
    head: message.head,
  }
}

/** A thread as `threads` prints it: the contract's fields. */
export interface ThreadView {
  readonly id: string
  readonly title: string
  readonly reason: string | null
  readonly audience: RoomThread['audience']
  readonly lifetime: RoomThread['lifetime']
  readonly status: RoomThread['status']
  readonly participants: readonly string[]
  readonly paths: readonly string[]
  readonly source: string
  readonly updatedAt: number
}

export function threadView(thread: RoomThread): ThreadView {
  return {
    id: thread.id,
    title: thread.title,
    reason: thread.reason,
    audience: thread.audience,
    lifetime: thread.lifetime,
    status: thread.status,
    participants: thread.participants,
    paths: thread.paths,
    source: thread.source,
    updatedAt: thread.updatedAt,
  }
}
