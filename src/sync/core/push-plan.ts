/**
 * Which of the outbox's next events to push now. Pure: the outbox reads the candidates, the
 * replicator builds their records and sends what this returns.
 */

/** One local event waiting to be pushed, in local insertion order. */
export interface PushCandidate {
  readonly seq: number
  /** Size of its record as JSON, in bytes. */
  readonly bytes: number
  /**
   * A Claude assistant message is one event built from several transcript lines (one per content
   * block), so it may still grow after it was stored. The server keeps the first body it gets for
   * an id; such an event is held back until it cannot grow any more.
   */
  readonly joinable: boolean
  /** A later human turn or tool result in the same transcript closed the message. */
  readonly closed: boolean
  /** When it happened (ms epoch, from the transcript). */
  readonly at: number
}

export interface PushBudget {
  readonly maxRecords: number
  /** Bytes the records of one push may add up to (the body limit less the envelope). */
  readonly maxBytes: number
}

export interface PushPlan {
  /** How many candidates, from the first, make up the next push (0: nothing to send now). */
  readonly take: number
  /** When the first held-back message settles and the outbox should be read again; null if none. */
  readonly recheckAt: number | null
}

/**
 * Lines of one assistant message are written within seconds of each other; one that has been
 * quiet this long without a human turn or a tool result after it is taken as finished.
 */
export const messageSettleMs = 5000

/**
 * Takes candidates in order while they fit the budget, stopping at the first message that may
 * still grow: pushes never overtake it, so the stored watermark stays a plain "everything up to
 * here was sent". A candidate larger than the whole budget goes alone (its builder cut it to fit).
 */
export function planPush(candidates: readonly PushCandidate[], now: number, budget: PushBudget): PushPlan {
  let take = 0
  let bytes = 0
  for (const candidate of candidates) {
    if (candidate.joinable && !candidate.closed && now - candidate.at < messageSettleMs) {
      return { take, recheckAt: candidate.at + messageSettleMs }
    }
    if (take === budget.maxRecords) break
    if (take > 0 && bytes + candidate.bytes > budget.maxBytes) break
    take++
    bytes += candidate.bytes
  }
  return { take, recheckAt: null }
}
