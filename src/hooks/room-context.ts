import { loadMachineId } from '../config/machine-id.ts'
import { carriedToSession } from '../delivery/store/delivery-ledger.ts'
import { type PendingContext, takeSessionContext } from '../room/services/session-context.ts'
import type { Db } from '../store/database.ts'
import { openHookStore } from './hook-store.ts'
import type { PresenceMark } from './presence-mark.ts'

/** Moving the cursor is one short write; past this wait for the lock the prompt goes on without it. */
const busyTimeoutMs = 500

/**
 * The room's messages for the hook's session, with the open store they were read from: `settle`
 * commits the cursor move (or rolls it back) and closes it. Null for a session the hook cannot
 * name (no session id), which has no cursor to keep. Throws when the store cannot be read; the
 * caller fails open, and the messages stay unseen for the next prompt.
 */
export function openRoomContext(mark: Omit<PresenceMark, 'state'>, budget: number): PendingContext | null {
  if (mark.actor.sessionId === null || mark.actor.vendor === null) return null
  const db = openHookStore(mark.project.databaseFile, busyTimeoutMs)
  try {
    const context = roomContextOn(db, mark, budget)
    if (context === null) {
      db.close()
      return null
    }
    return {
      ...context,
      settle: (delivered) => {
        try {
          context.settle(delivered)
        } finally {
          db.close()
        }
      },
    }
  } catch (error) {
    db.close()
    throw error
  }
}

/** The same on a store the caller opened and closes (SessionStart's brief shares it). */
export function roomContextOn(
  db: Db,
  mark: Omit<PresenceMark, 'state'>,
  budget: number,
): PendingContext | null {
  const { actor, project } = mark
  if (actor.sessionId === null || actor.vendor === null) return null
  return takeSessionContext(db, {
    vendor: actor.vendor,
    sessionId: actor.sessionId,
    worktree: project.layout.worktreeRoot,
    machine: loadMachineId(mark.env.sangamHome, mark.random),
    worktrees: project.worktrees,
    budget,
    now: mark.now,
    carried: (ids) =>
      carriedToSession(db, { vendor: actor.vendor ?? '', sessionId: actor.sessionId ?? '' }, ids),
  })
}
