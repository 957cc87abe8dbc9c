import type {
  LockAcquireRequest,
  LockTakeoverRequest,
  ServerLockHolder,
} from '../protocol/integration-lock.ts'

/**
 * The team integration lock's rule, pure: one holder at most; a grant takes the next fencing
 * token; a holder is stale once its last sign of life is `staleAfterMs` old, and only a stale (or
 * absent) holder can be taken over. Acquiring a held lock is refused even for its own holder: a
 * lane that holds it already knows its token (the local lock answers the same).
 */
export type AcquireDecision =
  | { readonly granted: true; readonly holder: ServerLockHolder }
  | { readonly granted: false; readonly holder: ServerLockHolder }

export type TakeoverDecision =
  | { readonly taken: true; readonly holder: ServerLockHolder; readonly previous: ServerLockHolder | null }
  | { readonly taken: false; readonly holder: ServerLockHolder }

export function decideAcquire(
  held: ServerLockHolder | null,
  request: LockAcquireRequest,
  now: number,
  lastToken: number,
): AcquireDecision {
  if (held !== null) return { granted: false, holder: held }
  return { granted: true, holder: grant(request, request.task, now, lastToken) }
}

export function decideTakeover(
  held: ServerLockHolder | null,
  request: LockTakeoverRequest,
  now: number,
  lastToken: number,
): TakeoverDecision {
  if (held !== null && !isLockStale(held, now, request.staleAfterMs)) return { taken: false, holder: held }
  return { taken: true, holder: grant(request, null, now, lastToken), previous: held }
}

export function isLockStale(
  holder: Pick<ServerLockHolder, 'heartbeatAt'>,
  now: number,
  staleAfterMs: number,
): boolean {
  return now - holder.heartbeatAt >= staleAfterMs
}

function grant(
  who: { lane: string; owner: string; machine: string },
  task: string | null,
  now: number,
  lastToken: number,
): ServerLockHolder {
  return {
    lane: who.lane,
    owner: who.owner,
    machine: who.machine,
    task,
    since: now,
    heartbeatAt: now,
    token: lastToken + 1,
  }
}
