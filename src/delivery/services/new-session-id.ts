import { readFileSync } from 'node:fs'
import { deliveryOf } from '../../agents/vendors.ts'
import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'
import type { TurnRow } from '../store/delivery-turn-table.ts'

/**
 * The id a CLI gave the new session a `start` turn opened (Codex's first `exec --json` event,
 * opencode's first `run --format json` event), read from the turn's log; null when the turn is no
 * such turn, or its log names none yet. A CLI slow to start (opencode took 20 s in a busy lab)
 * names it after the launch stopped watching, so the turn's end asks again.
 */
export function newSessionIdOf(turn: Pick<TurnRow, 'vendor' | 'sessionId' | 'logFile'>): string | null {
  if (!turn.sessionId.startsWith('new:') || turn.logFile === null) return null
  const read = deliveryOf(turn.vendor as DeliveryVendor).newSessionIdIn
  if (read === null) return null
  try {
    return read(readFileSync(turn.logFile, 'utf8'))
  } catch {
    return null
  }
}
