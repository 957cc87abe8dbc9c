import type { Actor } from '../../identity/protocol/actor.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/database.ts'
import { allowOutside, decideEdit, type EditOutcome } from '../core/edit.ts'
import type { Lease } from '../protocol/lease.ts'
import { hasLeaseTables, readLeases } from '../store/lease-table.ts'
import type { LeaseArbiter } from './arbiter.ts'
import { matchLeasePath } from './matcher.ts'
import { hardLinkNames, repositoryPaths } from './path.ts'
import { readLeaseSettings } from './settings.ts'

/** One edit an agent is about to make, as its hook sees it. */
export interface EditCheck {
  /** The session making the edit, acting for its human. */
  readonly actor: Actor
  /** The file as the tool named it: absolute (Claude Code) or relative to `cwd` (Codex). */
  readonly file: string
  /** The session's working directory. */
  readonly cwd: string
  /** Every worktree of the project (absolute, real paths), e.g. `Repository.worktrees`. */
  readonly worktrees: readonly string[]
}

/**
 * What the PreToolUse hook calls: decides the edit and records what it implies (the editor's
 * auto-lease; under `warn`, the collision) in one short transaction. A file outside the project
 * is allowed without touching the store. Throws STORE_BUSY when the lock stays taken past the edit
 * budget; the hook then fails open.
 */
export async function checkEdit(arbiter: LeaseArbiter, check: EditCheck): Promise<EditOutcome> {
  return arbiter.recordEdit(check.actor, repositoryPaths(check.file, check.cwd, check.worktrees))
}

/**
 * The same decision on a replica that cannot be written (opened read-only, a full disk): nothing
 * is recorded, so the editor takes no auto-lease. A replica from before leases has none to honour.
 */
export function checkEditReadOnly(db: Db, check: EditCheck, clock: Clock): EditOutcome {
  return checkEditsReadOnly(db, [check], clock).outcomes[0] ?? allowOutside
}

/**
 * `checkEditReadOnly` for every file of one tool call, reading the leases and the settings once;
 * the live leases come back too (the hook looks for the editor's own fresh auto-lease in them).
 */
export function checkEditsReadOnly(
  db: Db,
  checks: readonly EditCheck[],
  clock: Clock,
): { readonly outcomes: EditOutcome[]; readonly leases: Lease[] } {
  const now = clock.now()
  const leases = hasLeaseTables(db) ? readLeases(db, now) : []
  const settings = readLeaseSettings(db)
  const patterns = leases.map((lease) => lease.pattern)
  const outcomes = checks.map((check) => {
    // A hard link's other leased names count here, where the leases are at hand; this read-only
    // decision is the one that denies (the write path decides again only to take an auto-lease).
    const paths = [
      ...repositoryPaths(check.file, check.cwd, check.worktrees),
      ...hardLinkNames(check.file, check.cwd, check.worktrees, patterns),
    ]
    const outcome = decideEdit(leases, check.actor, paths, now, settings, matchLeasePath)
    return { ...outcome, autoLease: null, collisions: [] }
  })
  return { outcomes, leases }
}
