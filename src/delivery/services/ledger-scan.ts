import { isSameProcess } from '../../agents/process-identity.ts'
import { loadDirectory } from '../../room/services/directory.ts'
import { messagesArrivedAfter, type StoredMessage } from '../../room/store/message-table.ts'
import { threadById } from '../../room/store/thread-table.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/db.ts'
import { addDelivery, moveDelivery, readScanCursor, writeScanCursor } from '../store/delivery-ledger.ts'
import { liveTurns, updateTurn } from '../store/delivery-turn-table.ts'
import { newSessionIdOf } from './new-session-id.ts'
import { senderKindOf } from './sender-kind.ts'

import { tagTargets } from './tag-targets.ts'

/**
 * Turns whose process is gone: `starting` ones whose owner died before it could record the
 * spawn become `unknown` (and so do their tags: never retried), `running` ones whose vendor
 * process ended become `ended` (exit unknown when their owner was not there to see it).
 */
export function sweepTurns(db: Db, clock: Clock, pid: number): void {
  for (const turn of liveTurns(db)) {
    if (turn.state === 'starting') {
      if (turn.ownerPid === pid || isSameProcess(turn.ownerPid, turn.ownerStart)) continue
      db.transaction(() => {
        if (
          !updateTurn(db, turn.id, ['starting'], {
            state: 'unknown',
            endedAt: clock.now(),
            detail: 'the process starting it ended before it recorded the start',
          })
        )
          return
        for (const messageId of turn.messages) {
          moveDelivery(
            db,
            { messageId, vendor: turn.vendor, sessionId: turn.sessionId },
            ['starting'],
            {
              state: 'unknown',
              reason: 'the process starting its turn ended before it recorded the start',
            },
            clock.now(),
          )
        }
      }).immediate()
      continue
    }
    if (turn.pid === null || isSameProcess(turn.pid, turn.pidStart)) continue
    const learned = newSessionIdOf(turn)
    updateTurn(db, turn.id, ['running'], {
      state: 'ended',
      endedAt: clock.now(),
      ...(learned === null ? {} : { sessionId: learned }),
    })
  }
}

/**
 * Takes the messages that reached the replica since the last look into the ledger: one pending
 * row per session of this machine each one tags. Every message is weighed once, whichever
 * process looks first and however late, except the room's history: a message posted before
 * this store had its ledger (pulled from the team, or left from before delivery existed) is
 * never delivered (D273, which supersedes D173).
 */
export function scanMessages(
  db: Db,
  clock: Clock,
  where: { readonly machine: string; readonly worktrees: readonly string[]; readonly since: number },
): void {
  let after = readScanCursor(db) ?? 0
  for (;;) {
    const messages = messagesArrivedAfter(db, after, 500)
    if (messages.length === 0) return
    const directory = loadDirectory(db, {
      machine: where.machine,
      worktrees: where.worktrees,
    })
    db.transaction(() => {
      for (const message of messages) {
        if (message.at < where.since) continue
        const thread = message.threadId === null ? null : threadById(db, message.threadId)
        for (const target of tagTargets(message, directory, where.machine, thread)) {
          addDelivery(
            db,
            {
              messageId: message.id,
              vendor: target.vendor,
              sessionId: target.sessionId,
              state: 'pending',
              channel: null,
              reason: null,
              sender: message.sender,
              senderKind: senderKindOf(message),
              mode: target.by,
            },
            clock.now(),
          )
        }
      }
      after = (messages[messages.length - 1] as StoredMessage).seq
      writeScanCursor(db, after)
    }).immediate()
  }
}
