import type { RoomMessage } from '../protocol/message.ts'
import type { MessageView, ThreadView } from '../protocol/message-view.ts'
import type { RoomThread } from '../protocol/thread.ts'

export type { MessageView, ThreadView } from '../protocol/message-view.ts'

/** A stored message as its view (`messageViewSchema`): the contract's fields, nothing of the record's own. */
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

/** A stored thread as its view (`threadViewSchema`). */
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
