import { describeActor } from '../../identity/core/actor-names.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { guardWrite } from '../../secrets/core/wire-fields.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { describeConflicts, describeLease } from '../core/describe.ts'
import type { ClaimOutcome } from '../protocol/lease-view.ts'
import type { LeaseArbiter } from './arbiter.ts'
import { resolvePatternArgument } from './path.ts'

/**
 * Claiming files, the one use case the CLI (`sangam claim`), the MCP server (`ctx_claim`) and the
 * dashboard call: patterns as the person or agent typed them, resolved against `cwd`, decided by
 * whoever arbitrates the project (the replica, or the team server while attached).
 */
export interface ClaimLeaseInput {
  readonly actor: Actor
  /** Paths or globs as typed: relative to `cwd`, or absolute inside the project. */
  readonly patterns: readonly string[]
  /** Where relative patterns start: the shell's cwd, or the worktree root for agent tools. */
  readonly cwd: string
  readonly reason: string
  /**
   * How long the lease lasts, parsed at the caller's edge from the one duration syntax
   * (`parseTtl`: `30m`, `2h`, `1h30m`, `1d`); null takes the project's claim TTL.
   */
  readonly ttlMs: number | null
}

/**
 * What a claim came to, the same shape for every caller: all patterns granted (`leases`) or none
 * (`conflicts`, each naming the lease in the way). A grant may have gone over other sessions'
 * auto-leases (`overrode`, rung advise or warn) or taken over the actor's own agents' auto-leases
 * (`tookOver`: those leases ended, and the log says so).
 */
export type { ClaimOutcome } from '../protocol/lease-view.ts'

/**
 * `arbiterOf` names who decides (`projectLeaseArbiter` in `project/services/lease-arbiter.ts`); it
 * is asked only once the input has passed its checks.
 */
export async function claimLease(
  project: ProjectContext,
  arbiterOf: (project: ProjectContext) => LeaseArbiter,
  input: ClaimLeaseInput,
): Promise<ClaimOutcome> {
  const reason = input.reason.trim()
  if (reason === '')
    throw new SangamError(ErrorCode.InvalidInput, 'a claim needs a reason: say why, for whoever is kept out')
  if (input.patterns.length === 0)
    throw new SangamError(ErrorCode.InvalidInput, 'a claim needs a path or glob')
  const patterns = input.patterns.map((raw) => resolvePatternArgument(raw, input.cwd, project.repo.worktrees))
  // Patterns and the reason are stored, shown to the team and sent to the server: no secret.
  const checked = guardWrite('lease claim', { actor: input.actor, patterns, reason })
  const result = await arbiterOf(project).claim({ ...checked, ttlMs: input.ttlMs })
  if (!result.granted)
    return {
      granted: false,
      leases: [],
      conflicts: result.conflicts,
      overrode: [],
      tookOver: [],
      actor: input.actor,
    }
  return {
    granted: true,
    leases: result.leases,
    conflicts: [],
    overrode: result.overrode,
    tookOver: result.tookOver,
    actor: input.actor,
  }
}

/** The words every caller shows for a claim's outcome, one line each. */
export function describeClaimOutcome(outcome: ClaimOutcome, now: number): string {
  if (!outcome.granted)
    return `Not granted; do not edit these files:\n${describeConflicts(outcome.conflicts, now)}`
  const lines = outcome.leases.map(
    (lease) => `${lease.renewed ? 'renewed' : 'claimed'} ${describeLease(lease, now)}`,
  )
  for (const lease of outcome.tookOver)
    lines.push(`took over ${describeActor(lease.holder)}'s auto-lease on ${lease.pattern}; it has ended`)
  for (const lease of outcome.overrode)
    lines.push(`note: went over ${describeActor(lease.holder)}'s auto-lease on ${lease.pattern}`)
  return lines.join('\n')
}
