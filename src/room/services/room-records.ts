import type { z } from 'zod'
import type { Actor } from '../../identity/protocol/actor.ts'
import { enqueueRecord } from '../../records/store/record-outbox.ts'
import { guardWrite } from '../../secrets/core/wire-fields.ts'
import type { Db } from '../../store/db.ts'
import type { RoomMessage } from '../protocol/message.ts'
import type { roomMessageRecordDraftSchema } from '../protocol/records/room-message.ts'
import type { roomThreadRecordDraftSchema } from '../protocol/records/room-thread.ts'
import type { RoomThread } from '../protocol/thread.ts'
import { insertMessage } from '../store/message-table.ts'
import { writeThread } from '../store/thread-table.ts'

/**
 * The room's local writes. Each is stored AND queued for the team inside the caller's
 * transaction, so a post is either here and waiting for the server, or not here at all. Every
 * message and thread change passes the free-text rule here, whoever wrote it (CLI, MCP, the
 * dashboard, chat, the daemon): a secret in a typed field refuses the write, context is redacted.
 */
export function storeMessage(db: Db, message: RoomMessage, actor: Actor, now: number): void {
  const draft = guardWrite('room.message', {
    id: message.id,
    type: 'room.message',
    actor,
    at: new Date(message.at).toISOString(),
    payload: message,
  } satisfies z.infer<typeof roomMessageRecordDraftSchema>)
  insertMessage(db, draft.payload, null)
  enqueueRecord(db, draft, now)
}

/** A thread's new state; its record id is `<thread>@<updatedAt>`, one record per change. */
export function storeThread(db: Db, thread: RoomThread, actor: Actor, now: number): void {
  const draft = guardWrite('room.thread', {
    id: `${thread.id}@${thread.updatedAt}`,
    type: 'room.thread',
    actor,
    at: new Date(thread.updatedAt).toISOString(),
    payload: thread,
  } satisfies z.infer<typeof roomThreadRecordDraftSchema>)
  writeThread(db, draft.payload, null)
  enqueueRecord(db, draft, now)
}

/** A thread change's time: now, but always after the state it replaces, so the newest wins. */
export function nextUpdatedAt(previous: RoomThread | null, now: number): number {
  return previous === null ? now : Math.max(now, previous.updatedAt + 1)
}

/** A fresh id: a prefix and 12 hex characters of a random UUID. */
export function newRoomId(prefix: 'msg' | 'thr', uuid: string): string {
  return `${prefix}-${uuid.replaceAll('-', '').slice(0, 12)}`
}
