import type { LeaseSettings } from '../../protocol/lease.ts'

/**
 * The project's lease settings when nobody changed them (docs/decisions.md explains each):
 * collisions with another session's auto-lease are refused, because the promise is that two agents
 * cannot edit one file at once even when neither claimed it; auto-leases last 10 minutes from the
 * last edit; claims last 2 hours; a session's leases end with the session.
 */
export const defaultLeaseSettings: LeaseSettings = Object.freeze({
  autoLease: 'refuse',
  autoLeaseTtlMs: 10 * 60 * 1000,
  claimTtlMs: 2 * 60 * 60 * 1000,
  releaseOnSessionEnd: true,
})

/** The reason every auto-lease carries. */
export const autoLeaseReason = 'editing'
