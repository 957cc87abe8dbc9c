/** Where a lane and `main` stand, read once at the start of a sync. */
export interface LaneFacts {
  readonly head: string
  readonly main: string
  /** Uncommitted changes (untracked files included, ignored ones not). */
  readonly dirty: boolean
  /** `main` is `head` or one of its ancestors: the lane is built on the latest main. */
  readonly mainInHead: boolean
  /** `head` is `main` or one of its ancestors: the lane has nothing main lacks. */
  readonly headInMain: boolean
  /** The lane's committed change since its merge base with main changes no file. */
  readonly emptyChange: boolean
  /** The lane holding the integration lock, or null when it is free. */
  readonly lockLane: string | null
  readonly activeTask: string | null
}

/** The next safe step of a sync (the seed's ladder, in order). */
export type SyncStep =
  | { readonly kind: 'publish-task'; readonly task: string }
  | { readonly kind: 'already-synced' }
  | { readonly kind: 'catch-up'; readonly reset: boolean }
  | { readonly kind: 'no-changes' }
  | { readonly kind: 'busy'; readonly holder: string }
  | { readonly kind: 'publish-direct' }
  | { readonly kind: 'merge' }

/**
 * The ladder: an active task can only be published; a clean lane is already synced, caught up
 * (fast-forwarded, or reset to main when its commits change nothing; neither needs the lock nor
 * moves main) or has no changes; anything to publish needs the lock, then goes directly when the
 * lane is built on the latest main and through a merge (or a semantic task) otherwise.
 */
export function nextSyncStep(lane: string, facts: LaneFacts): SyncStep {
  if (facts.activeTask !== null) return { kind: 'publish-task', task: facts.activeTask }
  if (!facts.dirty) {
    if (facts.head === facts.main) return { kind: 'already-synced' }
    if (facts.headInMain) return { kind: 'catch-up', reset: false }
    if (facts.emptyChange)
      return facts.mainInHead ? { kind: 'no-changes' } : { kind: 'catch-up', reset: true }
  }
  if (facts.lockLane !== null && facts.lockLane !== lane) return { kind: 'busy', holder: facts.lockLane }
  return facts.mainInHead ? { kind: 'publish-direct' } : { kind: 'merge' }
}

/** A lock whose holder has not shown a sign of life for `staleMs` may be taken over. */
export function isLockStale(heartbeatAt: number, now: number, staleMs: number): boolean {
  return now - heartbeatAt >= staleMs
}
