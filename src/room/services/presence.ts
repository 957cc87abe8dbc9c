import type { Actor } from '../../identity/protocol/actor.ts'
import { enqueueRecord } from '../../records/store/record-outbox.ts'
import type { Db } from '../../store/db.ts'
import { defaultHandle, freeHandle, personHandle } from '../core/handles.ts'
// Types only: the hooks bundle this file, and must not load zod (test/hooks-startup.test.ts).
import type { PresencePayload, PresenceVendor, StoredPresenceState } from '../protocol/presence.ts'
import type { RoomPresenceRecord } from '../protocol/records/room-presence.ts'
import {
  type PresenceRow,
  readPresence,
  readSessionPresence,
  writePresence,
} from '../store/presence-table.ts'

/** What a hook (or `chat`) knows when a session's presence may have changed. */
export interface PresenceUpdate {
  readonly vendor: PresenceVendor
  readonly sessionId: string
  readonly human: string
  readonly worktree: string | null
  readonly branch: string | null
  readonly machine: string
  readonly state: StoredPresenceState
}

/**
 * Records a session's presence: the row and its `room.presence` record for the team, in one
 * IMMEDIATE transaction. Nothing is written when nothing changed (a prompt to a session already
 * online), so hooks stay one read on the common path. A new session gets its default handle, the
 * first free `-n` among every handle the room knows; a known one keeps its handle.
 */
export function recordPresence(db: Db, update: PresenceUpdate, now: number): PresenceRow {
  const write = db.transaction((): PresenceRow => {
    const current = readSessionPresence(db, update.vendor, update.sessionId)
    if (current !== null && unchanged(current, update)) return current
    const handle = current?.handle ?? newHandle(db, update)
    const row: PresenceRow = {
      ...update,
      handle,
      handleClaimed: current?.handleClaimed ?? false,
      updatedAt: Math.max(now, (current?.updatedAt ?? 0) + 1),
      firstSeenAt: current?.firstSeenAt ?? now,
      change: (current?.change ?? 0) + 1,
    }
    storePresence(db, row, now)
    return row
  })
  return write.immediate()
}

/**
 * Brings into the room a session it has no presence for (capture saw it; its hooks never
 * reported): its default handle and the given state, like a hook's first write. Nothing when a
 * row exists (a hook got there first). True when it wrote one.
 */
export function registerPresence(db: Db, update: PresenceUpdate, now: number): boolean {
  return db
    .transaction((): boolean => {
      if (readSessionPresence(db, update.vendor, update.sessionId) !== null) return false
      recordPresence(db, update, now)
      return true
    })
    .immediate()
}

/** Writes `row` and queues its record; call inside a transaction. */
export function storePresence(db: Db, row: PresenceRow, now: number): void {
  writePresence(db, row)
  enqueueRecord(db, presenceDraft(row), now)
}

/** Record ids keep every change in the log: `presence:<vendor>:<sessionId>:<n>`. */
export function presenceRecordId(vendor: PresenceVendor, sessionId: string, change: number): string {
  return `presence:${vendor}:${sessionId}:${change}`
}

function presenceDraft(row: PresenceRow): Omit<RoomPresenceRecord, 'gseq' | 'receivedAt'> {
  const { change, ...payload } = row
  const actor: Actor =
    row.vendor === 'human'
      ? { human: row.human, vendor: null, sessionId: row.sessionId }
      : { human: row.human, vendor: row.vendor, sessionId: row.sessionId }
  return {
    id: presenceRecordId(row.vendor, row.sessionId, change),
    type: 'room.presence',
    actor,
    at: new Date(row.updatedAt).toISOString(),
    payload: payload satisfies PresencePayload,
  }
}

function unchanged(current: PresenceRow, update: PresenceUpdate): boolean {
  return (
    current.state === update.state &&
    current.worktree === update.worktree &&
    current.branch === update.branch &&
    current.machine === update.machine &&
    current.human === update.human
  )
}

function newHandle(db: Db, update: PresenceUpdate): string {
  const rows = readPresence(db)
  // A person is one actor on every machine: a chat of a human the room already knows takes the
  // handle of their first chat, wherever it ran.
  if (update.vendor === 'human') {
    const theirs = rows.filter((row) => row.vendor === 'human' && row.human === update.human)
    const first = theirs.find((row) => row.handleClaimed) ?? theirs[0]
    if (first !== undefined) return first.handle
  }
  const base =
    update.vendor === 'human' ? personHandle(update.human) : defaultHandle(update.vendor, update.worktree)
  return freeHandle(base, new Set(rows.map((row) => row.handle)))
}
