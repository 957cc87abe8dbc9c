import type { Actor } from '../../src/identity/protocol/actor.ts'
import type { Lease } from '../../src/leases/protocol/lease.ts'

const hour = 3_600_000

/** Alice's Claude Code and Codex sessions, and Bob by hand: the actors of the lease tests. */
export const claude: Actor = { human: 'alice@x.dev', vendor: 'claude', sessionId: 'c-1' }
export const codex: Actor = { human: 'alice@x.dev', vendor: 'codex', sessionId: 'x-1' }
export const bob: Actor = { human: 'bob@x.dev', vendor: null, sessionId: null }

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
