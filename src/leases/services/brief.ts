import type { BriefSectionSource } from '../../memory/services/brief-section-source.ts'
import { leaseBriefSection } from '../core/brief.ts'
import { hasLeaseTables, readLeaseLog, readLeases } from '../store/lease-table.ts'
import { notableWindowMs } from './queries.ts'

/**
 * The brief's lease section: others' live leases, and forced releases, takeovers and collisions since the
 * reader's last brief (the last 24 hours for a first one). Like the team sections, it is left out
 * when it has nothing to say. Collisions are only recorded under the
 * `warn` rung, which is how that rung carries them into every session's context.
 */
export const leaseBrief: BriefSectionSource = ({ db, now, reader, cursor }) => {
  if (!hasLeaseTables(db)) return []
  // Strictly after the last brief: what it showed is not told again.
  const since = Math.max(cursor === null ? 0 : cursor.at + 1, now - notableWindowMs)
  const events = readLeaseLog(db, since, ['force-released', 'collision', 'taken-over'], 30)
  const section = leaseBriefSection({ leases: readLeases(db, now), events, reader, now })
  return section.lines.length === 0 ? [] : [section]
}
