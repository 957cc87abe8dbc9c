import { readContextCursor } from '../../room/store/context-cursor-table.ts'
import { messageById, type StoredMessage } from '../../room/store/message-table.ts'
import type { Db } from '../../store/db.ts'
import type { TagFact } from '../core/delivery-decision.ts'
import { deliveryPrompt } from '../core/delivery-prompt.ts'
import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'
import { type DeliveryRow, moveDelivery, pendingDeliveries } from '../store/delivery-ledger.ts'

/** A session delivery may start a turn in. */
export interface SessionKey {
  readonly vendor: DeliveryVendor
  readonly sessionId: string
}

/** A session's pending tags, as weighing reads them. */
export interface SessionTags {
  /** The rows weighed together: a send's alone, else every pending tag. */
  readonly rows: readonly DeliveryRow[]
  readonly tags: readonly TagFact[]
  readonly messages: ReadonlyMap<string, StoredMessage>
  /** A wake of this session failed for one of them: another channel is taken. */
  readonly wakeFailed: boolean
}

/**
 * The tags a session has waiting, each with its message; a tag whose message the session's context
 * has already shown (at a prompt, a session start or a hand-over) is marked delivered instead.
 */
export function pendingTagsOf(db: Db, session: SessionKey, now: number): SessionTags {
  const all = pendingDeliveries(db).filter(
    (row) => row.vendor === session.vendor && row.sessionId === session.sessionId,
  )
  // A send is weighed on its own: its refusal (a session open in a terminal) must not take the
  // tags waiting for that session's next prompt with it; they are weighed at the next look.
  const sends = all.filter((row) => row.mode === 'send')
  const rows = sends.length > 0 ? sends : all
  const cursor = readContextCursor(db, session.vendor, session.sessionId)
  const tags: TagFact[] = []
  const messages = new Map<string, StoredMessage>()
  let wakeFailed = false
  for (const row of rows) {
    const message = messageById(db, row.messageId)
    if (message === null) continue
    // Shown at a prompt, a session start or a hand-over since: the room's context carried it.
    if (cursor !== null && cursor.seenSeq >= message.seq) {
      moveDelivery(
        db,
        row,
        ['pending'],
        { state: 'delivered', channel: 'next-prompt', reason: 'shown in the session’s context' },
        now,
      )
      continue
    }
    if (row.reason?.startsWith('wake failed') === true) wakeFailed = true
    messages.set(message.id, message)
    tags.push({
      messageId: message.id,
      senderKind: row.senderKind,
      fromSession: message.session,
      at: message.at,
      by: row.mode === 'send' ? 'direct' : row.mode,
    })
  }
  return { rows, tags, messages, wakeFailed }
}

/** The prompt the tags are delivered as; each answered by its `@handle` when a session posted it, else the thread, or `@human`. */
export function tagsPrompt(
  tags: SessionTags['tags'],
  messages: SessionTags['messages'],
  mode: 'send' | 'tag',
): string {
  return deliveryPrompt(
    tags.map((tag) => {
      const message = messages.get(tag.messageId) as StoredMessage
      return { ...message, fromAgent: message.session !== null }
    }),
    mode,
  )
}
