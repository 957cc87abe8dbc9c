import { describeActor } from '../../identity/core/actor-names.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { BriefSection } from '../../memory/core/brief-assembly.ts'
import { formatIn, formatTime } from '../../shared/time-text.ts'
import type { Lease, LeaseLogEntry } from '../protocol/lease.ts'
import { isSameActor, leaseCovers } from './actor.ts'

/** Own leases ending sooner than this are worth a line: renew them or lose them. */
export const endingSoonMs = 30 * 60 * 1000

export interface LeaseBriefInput {
  readonly leases: readonly Lease[]
  /** Forced releases, takeovers and collisions the reader has not been told about, newest first. */
  readonly events: readonly LeaseLogEntry[]
  readonly reader: Actor
  readonly now: number
}

/**
 * The leases that matter to the reader, most pressing first: a lease of theirs someone forced
 * away or their human took over; what others hold (claims, then files being edited), where the reader's edits are refused;
 * collisions and forced releases the team should know of; the reader's own claims about to end.
 */
export function leaseBriefSection({ leases, events, reader, now }: LeaseBriefInput): BriefSection {
  const others = leases.filter((lease) => !leaseCovers(lease.holder, reader))
  const byKind = (kind: Lease['kind']): Lease[] => others.filter((lease) => lease.kind === kind)
  const endingSoon = leases.filter(
    (lease) =>
      lease.kind === 'claim' && isSameActor(lease.holder, reader) && lease.expiresAt - now <= endingSoonMs,
  )
  const takenFromReader = events.filter(
    (e) => (e.action === 'force-released' || e.action === 'taken-over') && isSameActor(e.holder, reader),
  )
  // A takeover is between a human and their own session: nobody else needs the line.
  const otherEvents = events.filter((e) => !takenFromReader.includes(e) && e.action !== 'taken-over')
  const lines = [
    ...takenFromReader.map((e) => takenLine(e)),
    ...byKind('claim').map((lease) => claimLine(lease, now)),
    ...byKind('auto').map((lease) => `${lease.pattern}: being edited by ${describeActor(lease.holder)}`),
    ...otherEvents.map((e) => eventLine(e)),
    ...endingSoon.map(
      (lease) => `yours: ${lease.pattern} ends ${formatIn(lease.expiresAt, now)}; claim again to keep it`,
    ),
  ]
  return {
    key: 'leases',
    title: 'Leases (edits to files others hold are refused)',
    lines,
    total: lines.length,
    empty: 'nothing is leased by others',
  }
}

function takenLine(entry: LeaseLogEntry): string {
  const by = describeActor(entry.by)
  if (entry.action === 'taken-over')
    return `your auto-lease on ${entry.pattern} was taken over by ${by}, whose claim covers your edits: "${entry.reason}"`
  return `your lease on ${entry.pattern} was released by ${by}: "${entry.reason}"`
}

function claimLine(lease: Lease, now: number): string {
  const until = `${formatTime(lease.expiresAt, now)} (${formatIn(lease.expiresAt, now)})`
  return `${lease.pattern}: ${describeActor(lease.holder)} until ${until}: "${lease.reason}"`
}

function eventLine(entry: LeaseLogEntry): string {
  if (entry.action === 'collision') {
    return `${describeActor(entry.by)} edited ${entry.pattern} while ${describeActor(entry.holder)} was editing it`
  }
  return `${describeActor(entry.by)} force-released ${entry.pattern} from ${describeActor(entry.holder)}: "${entry.reason}"`
}
