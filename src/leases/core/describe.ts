import { describeActor } from '../../identity/core/actor-names.ts'
import { oneLine } from '../../shared/terminal-text.ts'
import { formatIn, formatTime } from '../../shared/time-text.ts'
import type { Lease, LeaseConflict, LeaseLogEntry } from '../protocol/lease.ts'

/**
 * One-line accounts of leases, shared by the CLI, the MCP tools, the edit hook and the brief, so
 * an agent and a human read the same words. Each names the holder, the reason and the expiry.
 */

/** `src/auth/** — bob@x.dev's claude session 1a2b3c4d, until 14:05 UTC (in 23 min): "refactor auth" [token 7]` */
export function describeLease(lease: Lease, now: number): string {
  return `${oneLine(lease.pattern)} — ${describeActor(lease.holder)}, until ${until(lease, now)}: ${what(lease)} [token ${lease.token}]`
}

/**
 * A lease that has just ended (released, force-released): what it was and whose, without the
 * expiry a live lease names, which no longer applies: `src/auth/** — bob@x.dev: "refactor auth" [token 7]`.
 */
export function describeEndedLease(lease: Lease): string {
  return `${oneLine(lease.pattern)} — ${describeActor(lease.holder)}: ${what(lease)} [token ${lease.token}]`
}

/** Why a claim was not granted, one line per conflict. */
export function describeConflicts(conflicts: readonly LeaseConflict[], now: number): string {
  return conflicts
    .map(({ pattern, lease }) => `${oneLine(pattern)} is held: ${describeLease(lease, now)}`)
    .join('\n')
}

/** The reason an edit is denied (or warned about), addressed to the agent that tried it. */
export function describeEditBlock(path: string, lease: Lease, now: number): string {
  const holder = describeActor(lease.holder)
  if (lease.kind === 'auto') {
    return (
      `${oneLine(path)} is being edited by ${holder} (auto-lease from its last edit, free ${until(lease, now)} ` +
      'unless it edits again). Work on something else meanwhile, or ask your human to coordinate.'
    )
  }
  return (
    `${oneLine(path)} is leased to ${holder} until ${until(lease, now)}: "${oneLine(lease.reason)}" ` +
    `(lease ${oneLine(lease.pattern)}, token ${lease.token}). Work on something else, or ask your human to ` +
    'coordinate; only the holder releases it (or a human with sangam release --force).'
  )
}

/** A lease log entry for the team: forced releases and collisions are what they must not miss. */
export function describeLogEntry(entry: LeaseLogEntry, now: number): string {
  const when = formatTime(entry.at, now)
  const by = describeActor(entry.by)
  const holder = describeActor(entry.holder)
  const pattern = oneLine(entry.pattern)
  const reason = oneLine(entry.reason)
  switch (entry.action) {
    case 'force-released':
      return `${when}: ${by} force-released ${pattern} held by ${holder}: "${reason}"`
    case 'collision':
      return `${when}: ${by} edited ${pattern} while ${holder} was editing it`
    case 'taken-over':
      return `${when}: ${by} took over ${pattern} from ${holder}'s auto-lease: "${reason}"`
    case 'session-ended':
      return `${when}: ${pattern} released as ${holder} ended`
    case 'released':
      return `${when}: ${by} released ${pattern}`
    case 'renewed':
      return `${when}: ${by} renewed ${pattern}: "${reason}"`
    case 'granted':
      return `${when}: ${by} claimed ${pattern}: "${reason}"`
  }
}

/** What the lease is for: its reason, on one line whatever it holds (D290). */
function what(lease: Lease): string {
  return lease.kind === 'auto' ? 'auto-lease while editing' : `"${oneLine(lease.reason)}"`
}

function until(lease: Lease, now: number): string {
  return `${formatTime(lease.expiresAt, now)} (${formatIn(lease.expiresAt, now)})`
}
