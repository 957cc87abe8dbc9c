import { leaseCovers } from '../core/lease-actor.ts'
import { describeLease } from '../core/lease-describe.ts'
import type { BriefSectionSource } from '../services/memory-brief-sections.ts'
import { hasLeaseTables, readLeases } from '../store/lease-table.ts'

/**
 * The live leases, as a section of the brief SessionStart hands a new session: what it would be
 * refused (others' leases first), then what it holds itself. The shared brief (`sangam brief`,
 * `ctx_brief`) has no lease section yet; when it gets one this source should move there.
 */
export const leaseBriefSection: BriefSectionSource = ({ db, now, reader }) => {
  const leases = hasLeaseTables(db) ? readLeases(db, now) : []
  const others = leases.filter((lease) => !leaseCovers(lease.holder, reader))
  const own = leases.filter((lease) => leaseCovers(lease.holder, reader))
  return [
    {
      key: 'leases',
      title: 'Leases (edits to others’ are refused)',
      lines: [
        ...others.map((lease) => describeLease(lease, now)),
        ...own.map((lease) => `${describeLease(lease, now)} (yours)`),
      ],
      total: leases.length,
      empty: 'nothing is leased',
    },
  ]
}
