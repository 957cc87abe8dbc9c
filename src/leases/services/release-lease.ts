import { describeActor } from '../../identity/core/actor-names.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { guardWrite } from '../../secrets/core/wire-fields.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { describeEndedLease, describeLease } from '../core/describe.ts'
import type { ReleaseOutcome } from '../protocol/lease-view.ts'
import type { LeaseArbiter } from './arbiter.ts'
import { resolvePatternArgument } from './path.ts'

/**
 * Releasing leases, the one use case behind `sangam release`, `ctx_release` and the dashboard.
 * Nothing to release on a named pattern is NOT_FOUND; another holder's lease is LEASE_CONFLICT
 * unless a human forces it with a reason (the MCP tools never offer forcing).
 */
export interface ReleaseLeaseInput {
  readonly actor: Actor
  /** Patterns as typed, relative to `cwd`; null releases every lease the actor holds. */
  readonly patterns: readonly string[] | null
  readonly cwd: string
  /** Set to release another holder's lease on the named patterns; recorded and shown to the team. */
  readonly forceReason: string | null
}

export type { ReleaseOutcome } from '../protocol/lease-view.ts'

/**
 * `arbiterOf` names who decides (`projectLeaseArbiter` in `project/services/lease-arbiter.ts`); it
 * is asked only once the input has passed its checks.
 */
export async function releaseLease(
  project: ProjectContext,
  arbiterOf: (project: ProjectContext) => LeaseArbiter,
  input: ReleaseLeaseInput,
): Promise<ReleaseOutcome> {
  if (input.forceReason !== null && input.patterns === null)
    throw new SangamError(ErrorCode.InvalidInput, 'a forced release needs the patterns to release')
  const patterns =
    input.patterns === null || input.patterns.length === 0
      ? null
      : input.patterns.map((raw) => resolvePatternArgument(raw, input.cwd, project.repo.worktrees))
  // A forced release's reason is recorded and shown to the team: no secret. The actor is redacted
  // as a claim's is, so it names the holder the claim stored.
  const decision = await arbiterOf(project).release(
    guardWrite('lease release', { actor: input.actor, patterns, forceReason: input.forceReason }),
  )
  if (!decision.ok && decision.problem === 'not-found')
    throw new SangamError(ErrorCode.NotFound, `no live lease on ${decision.pattern}; see sangam leases`)
  if (!decision.ok) {
    throw new SangamError(
      ErrorCode.LeaseConflict,
      `${decision.pattern} is not yours to release: it is held by ${describeActor(decision.lease.holder)}, not by you, ` +
        `and only the holder releases it (a human may override with sangam release --force --reason "…"): ` +
        describeLease(decision.lease, project.clock.now()),
      { lease: decision.lease },
    )
  }
  return { released: decision.released, forced: decision.forced, actor: input.actor }
}

/** The words every caller shows for a release, one line per lease. */
export function describeReleaseOutcome(outcome: ReleaseOutcome): string {
  if (outcome.released.length === 0) return 'you hold no leases'
  return outcome.released
    .map(
      (lease) =>
        `${outcome.forced.includes(lease) ? 'force-released' : 'released'} ${describeEndedLease(lease)}`,
    )
    .join('\n')
}
