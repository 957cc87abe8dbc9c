import type { ProjectContext } from '../../identity/services/project-context.ts'
import { type DeliveryRow, recentDeliveries } from '../store/delivery-ledger.ts'
import { recentTurns } from '../store/delivery-turn-table.ts'
import type { DeliveryRouter } from './delivery-router.ts'

import { resolveSession } from './session-list.ts'
import { type TurnView, turnView } from './session-turns.ts'

/** A ledger row as `deliveries` shows it. */
export interface DeliveryView {
  readonly messageId: string
  readonly vendor: string
  readonly sessionId: string
  readonly state: string
  readonly channel: string | null
  readonly reason: string | null
  readonly sender: string
  readonly senderKind: string
  readonly mode: string
  readonly turnId: number | null
  readonly createdAt: string
  readonly updatedAt: string
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    messageId: row.messageId,
    vendor: row.vendor,
    sessionId: row.sessionId,
    state: row.state,
    channel: row.channel,
    reason: row.reason,
    sender: row.sender,
    senderKind: row.senderKind,
    mode: row.mode,
    turnId: row.turnId,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  }
}

/** `deliveries`: the ledger's newest rows and the turns they started (the costs), newest first. */
export function listDeliveries(
  project: ProjectContext,
  router: DeliveryRouter,
  input: { readonly limit: number; readonly session: string | null },
): { deliveries: DeliveryView[]; turns: TurnView[] } {
  const session = input.session === null ? null : resolveSession(project, router, input.session)
  const filter = session === null ? {} : { vendor: session.vendor, sessionId: session.id }
  return {
    deliveries: recentDeliveries(project.db, { limit: input.limit, ...filter }).map(deliveryView),
    turns: recentTurns(project.db, { limit: input.limit, ...filter }).map(turnView),
  }
}
