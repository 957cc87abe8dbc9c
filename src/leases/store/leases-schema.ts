import type { Migration } from '../../store/migrations.ts'
import { addLeasePatternRegex, createLeaseTables } from './lease-table.ts'

/** The leases' migration steps (released: never edit one). */
export const leaseTables: Migration = { version: 2, name: 'leases', sql: createLeaseTables }

export const leasePatternRegex: Migration = {
  version: 4,
  name: 'lease pattern regex',
  sql: addLeasePatternRegex,
}
