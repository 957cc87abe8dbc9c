import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import { checkMessageText } from '../core/message-text.ts'
import { resolveRecipients } from '../core/recipients.ts'
import { humanToken, type RoomThread } from '../protocol/thread.ts'
import { maxThreadTitleChars, type OpenThreadInput } from '../protocol/thread-open-input.ts'
import { listThreadRows, threadById } from '../store/thread-table.ts'
import { newRoomId, nextUpdatedAt, storeThread } from './room-records.ts'
import { posterToken, type RoomScope } from './room-scope.ts'

/**
 * Opens a thread. Its participants are the opener, those named (resolved like recipients) and,
 * for a human-loop thread, always `@human`: such a thread waits on a human by definition.
 */
export function openThread(scope: RoomScope, input: OpenThreadInput): RoomThread {
  const title = checkMessageText(input.title, 'the thread title')
  if (title.length > maxThreadTitleChars) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `a thread title is at most ${maxThreadTitleChars} characters`,
    )
  }
  const reason =
    input.reason === null || input.reason.trim() === ''
      ? null
      : checkMessageText(input.reason, 'the thread reason')
  const named = resolveRecipients(scope.directory, input.participants)
  const participants = scope.poster.joins === false ? [] : [posterToken(scope.poster)]
  for (const token of [...named, ...(input.audience === 'human-loop' ? [humanToken] : [])]) {
    if (!participants.includes(token)) participants.push(token)
  }
  const paths = [...new Set(input.paths.map((path) => path.trim()).filter((path) => path !== ''))]
  const { db, clock, poster } = scope
  return db
    .transaction((): RoomThread => {
      const now = clock.now()
      const thread: RoomThread = {
        id: newRoomId('thr', scope.random.uuid()),
        title,
        reason,
        audience: input.audience,
        lifetime: input.lifetime,
        status: 'open',
        participants,
        paths,
        source: poster.sender,
        opener:
          poster.actor.vendor !== null && poster.actor.sessionId !== null
            ? { vendor: poster.actor.vendor, sessionId: poster.actor.sessionId }
            : null,
        createdAt: now,
        updatedAt: now,
      }
      storeThread(db, thread, poster.actor, now)
      return thread
    })
    .immediate()
}

/** Closes a thread; closing a closed one changes nothing and answers its state. */
export function closeThread(scope: Omit<RoomScope, 'directory' | 'random'>, id: string): RoomThread {
  const { db, clock, poster } = scope
  return db
    .transaction((): RoomThread => {
      const thread = threadById(db, id)
      if (thread === null)
        throw new SangamError(ErrorCode.NotFound, `no thread ${id}: sangam threads --all lists them`)
      if (thread.status === 'closed') return thread
      const now = clock.now()
      const closed: RoomThread = { ...thread, status: 'closed', updatedAt: nextUpdatedAt(thread, now) }
      storeThread(db, closed, poster.actor, now)
      return closed
    })
    .immediate()
}

/** Threads, most recently changed first: the open ones, or all with `all`. */
export function listThreads(db: Db, options: { readonly all: boolean }): RoomThread[] {
  return listThreadRows(db, options)
}
