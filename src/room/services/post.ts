import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { parseMentions } from '../core/mentions.ts'
import { checkMessageText } from '../core/message-text.ts'
import { resolveMentions, resolveRecipients } from '../core/recipients.ts'
import type { RoomMessage } from '../protocol/message.ts'
import type { PostInput } from '../protocol/post-input.ts'
import { latestMessageOfSender } from '../store/message-table.ts'
import { threadById } from '../store/thread-table.ts'
import { newRoomId, nextUpdatedAt, storeMessage, storeThread } from './room-records.ts'
import { posterToken, type RoomScope } from './room-scope.ts'

/**
 * A post that repeats the poster's last one (same text, kind, topic, thread and recipients) within
 * this long is taken for a retry of a post whose process died before it could report, and answers
 * with the message already stored instead of a second one.
 */
export const retryWindowMs = 10 * 60_000

/**
 * Posts a message: text checked (trimmed, ≤ 4,000 characters, no secret), recipients resolved
 * (`--to` plus the text's mentions, failing closed), into an open thread if one is named (the
 * poster joins it). Stored and queued for the team in one transaction.
 */
export function post(scope: RoomScope, input: PostInput): RoomMessage {
  const text = checkMessageText(input.text)
  const topic = input.topic?.trim() || null
  const recipients = [
    ...new Set([
      ...resolveRecipients(scope.directory, input.to),
      ...resolveMentions(scope.directory, parseMentions(text)),
    ]),
  ]
  const { db, clock, poster } = scope
  return db
    .transaction((): RoomMessage => {
      const now = clock.now()
      const thread = input.threadId === null ? null : threadById(db, input.threadId)
      if (input.threadId !== null && thread === null) {
        throw new SangamError(
          ErrorCode.NotFound,
          `no thread ${input.threadId}: sangam threads --all lists them`,
        )
      }
      if (thread !== null && thread.status === 'closed') {
        throw new SangamError(
          ErrorCode.InvalidInput,
          `thread ${thread.id} ("${thread.title}") is closed and takes no more posts; open a new one with sangam thread-open`,
        )
      }
      const last = latestMessageOfSender(db, poster.sender, now - retryWindowMs)
      if (
        last !== null &&
        last.text === text &&
        last.kind === input.kind &&
        last.topic === topic &&
        last.threadId === input.threadId &&
        JSON.stringify(last.recipients) === JSON.stringify(recipients)
      ) {
        return last
      }
      const session =
        poster.actor.vendor !== null && poster.actor.sessionId !== null
          ? { vendor: poster.actor.vendor, sessionId: poster.actor.sessionId }
          : null
      const message: RoomMessage = {
        id: newRoomId('msg', scope.random.uuid()),
        kind: input.kind,
        topic,
        text,
        sender: poster.sender,
        human: poster.actor.human,
        session,
        // A post naming the agent session that made it is an agent's, whatever the channel said.
        author: session === null ? poster.author : 'agent',
        recipients,
        threadId: input.threadId,
        at: now,
        worktree: poster.git.worktree,
        branch: poster.git.branch,
        head: poster.git.head,
        handoff: input.handoff ?? null,
      }
      storeMessage(db, message, poster.actor, now)
      if (thread !== null) {
        const token = posterToken(poster)
        storeThread(
          db,
          {
            ...thread,
            participants:
              poster.joins === false || thread.participants.includes(token)
                ? thread.participants
                : [...thread.participants, token],
            updatedAt: nextUpdatedAt(thread, now),
          },
          poster.actor,
          now,
        )
      }
      return message
    })
    .immediate()
}
