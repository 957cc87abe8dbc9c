import { processStart } from '../../agents/process-identity.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/db.ts'
import { deliveryOf, moveDelivery } from '../store/delivery-ledger.ts'
import {
  insertTurn,
  lastTurnAt,
  liveTurnOf,
  type TurnRow,
  turnById,
  updateTurn,
} from '../store/delivery-turn-table.ts'

/**
 * Claims a turn for a session in one IMMEDIATE transaction: none `starting | running` for it (the
 * unique index decides between racing processes), the cooldown passed, and each tag still pending
 * (another process may have carried it); the tags move to `starting` with the turn's id.
 */
export function claimTurn(
  db: Db,
  input: {
    readonly vendor: string
    readonly sessionId: string
    readonly channel: TurnRow['channel']
    readonly cause: 'human' | 'agent'
    readonly why: TurnRow['why']
    readonly messageIds: readonly string[]
    readonly ownerPid: number
    readonly ownerStart: string | null
    readonly worktree: string | null
    readonly cooldownMs: number
    readonly now: number
  },
): { turn: TurnRow | null; problem: string | null } {
  return db
    .transaction(() => {
      if (liveTurnOf(db, input.vendor, input.sessionId) !== null)
        return { turn: null, problem: 'turn-running' }
      const last = lastTurnAt(db, input.vendor, input.sessionId)
      if (last !== null && input.now - last < input.cooldownMs) return { turn: null, problem: 'cooldown' }
      const still = input.messageIds.filter(
        (messageId) => deliveryOf(db, messageId, input.vendor, input.sessionId)?.state === 'pending',
      )
      if (still.length === 0) return { turn: null, problem: 'already carried by another process' }
      const id = insertTurn(
        db,
        {
          vendor: input.vendor,
          sessionId: input.sessionId,
          channel: input.channel,
          cause: input.cause,
          why: input.why,
          messages: still,
          state: 'starting',
          ownerPid: input.ownerPid,
          ownerStart: input.ownerStart,
          worktree: input.worktree,
        },
        input.now,
      )
      if (id === null) return { turn: null, problem: 'turn-running' }
      for (const messageId of still)
        moveDelivery(
          db,
          { messageId, vendor: input.vendor, sessionId: input.sessionId },
          ['pending'],
          { state: 'starting', channel: input.channel, reason: null, turnId: id },
          input.now,
        )
      return { turn: turnById(db, id), problem: null }
    })
    .immediate()
}

/**
 * A new `resume` turn for the tags a refused background turn failed with, in one IMMEDIATE
 * transaction (another process may have taken them meanwhile: then null). Not a second claim:
 * the cooldown is the refused turn's, which never ran.
 */
export function resumeInstead(db: Db, clock: Clock, ownerPid: number, refused: TurnRow): TurnRow | null {
  return db
    .transaction(() => {
      const still = refused.messages.filter((messageId) => {
        const row = deliveryOf(db, messageId, refused.vendor, refused.sessionId)
        return row?.state === 'failed' && row.turnId === refused.id
      })
      if (still.length === 0) return null
      const now = clock.now()
      const id = insertTurn(
        db,
        {
          vendor: refused.vendor,
          sessionId: refused.sessionId,
          channel: 'resume',
          cause: refused.cause,
          why: refused.why,
          messages: still,
          state: 'starting',
          ownerPid,
          ownerStart: processStart(ownerPid),
          worktree: refused.worktree,
        },
        now,
      )
      if (id === null) return null
      updateTurn(db, id, ['starting'], {
        state: 'starting',
        detail: `instead of turn ${refused.id}: ${refused.detail ?? 'claude --bg failed'}`,
      })
      for (const messageId of still)
        moveDelivery(
          db,
          { messageId, vendor: refused.vendor, sessionId: refused.sessionId },
          ['failed'],
          { state: 'starting', channel: 'resume', reason: null, turnId: id },
          now,
        )
      return turnById(db, id)
    })
    .immediate()
}

/** A turn and its tags moved together, in one IMMEDIATE transaction (each only from the states named). */
export function moveTurn(
  db: Db,
  turn: TurnRow,
  move: {
    readonly from: Parameters<typeof updateTurn>[2]
    readonly to: Parameters<typeof updateTurn>[3]
    readonly tagsFrom: Parameters<typeof moveDelivery>[2]
    readonly tagsTo: Parameters<typeof moveDelivery>[3]
    readonly at: number
  },
): void {
  db.transaction(() => {
    updateTurn(db, turn.id, move.from, move.to)
    for (const messageId of turn.messages)
      moveDelivery(
        db,
        { messageId, vendor: turn.vendor, sessionId: turn.sessionId },
        move.tagsFrom,
        move.tagsTo,
        move.at,
      )
  }).immediate()
}

/** A started turn: its own state, and its tags delivered through its channel. */
export function recordStarted(
  db: Db,
  clock: Clock,
  turn: TurnRow,
  state: 'running' | 'ended',
  change: { pid?: number; pidStart?: string | null; logFile?: string; endedAt?: number; detail?: string },
): void {
  moveTurn(db, turn, {
    from: ['starting'],
    to: { state, ...change },
    tagsFrom: ['starting'],
    tagsTo: { state: 'delivered', channel: turn.channel, reason: null },
    at: clock.now(),
  })
}

/** A turn that could not start, and its tags with it (never retried: the reason says why). */
export function failTurn(db: Db, clock: Clock, turn: TurnRow, why: string): TurnRow | null {
  const at = clock.now()
  moveTurn(db, turn, {
    from: ['starting'],
    to: { state: 'failed', detail: why, endedAt: at },
    tagsFrom: ['starting'],
    tagsTo: { state: 'failed', reason: why },
    at,
  })
  return turnById(db, turn.id)
}
