import type { Actor } from '../../identity/protocol/actor.ts'
import type { ReleaseDecision, ReleaseRequest } from '../core/arbitration.ts'
import type { EditOutcome } from '../core/edit.ts'
import type { ClaimResult, Lease } from '../protocol/lease.ts'

/**
 * The seam where leases are arbitrated: the local SQLite replica (`LocalLeaseArbiter`) when no team
 * server is attached, the project's Durable Object (`ServerLeaseArbiter`) when one is, with the same
 * pure rules from core/ and the same answers (`project/services/lease-arbiter.ts` picks). Reads that decide
 * nothing (`leases`, `who-has`, the brief) go to the replica directly.
 */
export interface LeaseArbiter {
  /** Takes or renews leases on normalised patterns, all or none. */
  claim(request: ClaimInput): Promise<ClaimResult>
  /** Releases the actor's leases (or, forced, another's on named patterns). */
  release(request: ReleaseRequest): Promise<ReleaseDecision>
  /**
   * Decides one edit and records its consequences in one step: the editor's auto-lease, and under
   * the `warn` rung the collision. `paths` are the file's repository-relative spellings
   * (`repositoryPaths`); empty means outside the project, always allowed.
   */
  recordEdit(actor: Actor, paths: readonly string[]): Promise<EditOutcome>
  /** Ends the leases a session holds, when the project releases them at session end. */
  releaseSessionLeases(sessionId: string): Promise<readonly Lease[]>
}

export interface ClaimInput {
  readonly actor: Actor
  /** Normalised, repository-relative patterns (see leases/services/path.ts). */
  readonly patterns: readonly string[]
  readonly reason: string
  /** Null takes the project's claim TTL (2 h unless set). */
  readonly ttlMs: number | null
}
