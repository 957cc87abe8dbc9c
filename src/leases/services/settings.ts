import { readOptionGroup, writeOptionGroup } from '../../options/services/option-store.ts'
import type { Db } from '../../store/database.ts'
import { leaseOptions } from '../core/settings.ts'
import type { LeaseSettings } from '../protocol/lease.ts'

/**
 * The project's lease settings: the `leases` group of project options (`leases/core/settings.ts`).
 * Every edit hook reads them; they are checked with type guards, not zod (docs/performance.md).
 */
export function readLeaseSettings(db: Db): LeaseSettings {
  return readOptionGroup(db, leaseOptions)
}

/** Sets some fields and returns the resulting settings. Unreadable stored settings are replaced. */
export function writeLeaseSettings(db: Db, changes: Partial<LeaseSettings>): LeaseSettings {
  return writeOptionGroup(db, leaseOptions, changes)
}
