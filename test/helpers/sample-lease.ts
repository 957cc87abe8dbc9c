import type { Actor } from '../../src/identity/protocol/actor.ts'
import type { Lease } from '../../src/leases/protocol/lease.ts'

const hour = 3_600_000

/** A claim on `pattern` held by `holder`, taken (and last renewed) at `at` for an hour; `extra` overrides any field. */
export function sampleLease(holder: Actor, pattern: string, at: number, extra: Partial<Lease> = {}): Lease {
  return {
    pattern,
    holder,
    kind: 'claim',
    reason: 'work',
    token: 1,
    takenAt: at,
    renewedAt: at,
    expiresAt: at + hour,
    ...extra,
  }
}
