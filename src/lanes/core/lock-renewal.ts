/** What the daemon can see of the lane that holds the integration lock. */
export interface LockLifeSigns {
  /** The lane's state is `task` with the very task the lock names, or `integrating` (a publish). */
  readonly working: boolean
  /** The lane's agent pane still exists, or the sync process that integrates it still runs. */
  readonly agentAlive: boolean
  /** When the lane's worktree last changed (a file edited, a commit, its task folder), or null. */
  readonly changedAt: number | null
}

/**
 * Whether the daemon renews the heartbeat of the lock a lane holds (D246): only for a lane that is
 * at work on what the lock is for, whose agent is alive or whose worktree changed within the stale
 * window, and only once a third of that window has passed since the last heartbeat (a row write
 * per minute would be noise). A lock held elsewhere (another machine) is that machine's to renew.
 */
export function shouldRenewLock(
  holder: { readonly heartbeatAt: number; readonly elsewhere?: boolean | undefined },
  signs: LockLifeSigns,
  now: number,
  staleMs: number,
): boolean {
  if (!renewalDue(holder, now, staleMs) || !signs.working) return false
  return signs.agentAlive || (signs.changedAt !== null && now - signs.changedAt < staleMs)
}

/** Whether a heartbeat is old enough to be worth renewing (asked first: the signs cost git and tmux). */
export function renewalDue(
  holder: { readonly heartbeatAt: number; readonly elsewhere?: boolean | undefined },
  now: number,
  staleMs: number,
): boolean {
  return holder.elsewhere !== true && now - holder.heartbeatAt >= staleMs / 3
}
