import { defaultsOf, type OptionGroup } from '../../options/core/option-group.ts'
import {
  booleanType,
  type Checked,
  type OptionType,
  positiveIntegerType,
  rungType,
} from '../../options/core/option-type.ts'
import type { LeaseSettings } from '../protocol/lease.ts'
import { parseTtl } from './expiry.ts'

/** A lease duration: stored in milliseconds, typed as `30m`, `2h`, `1h30m` or `1d`. */
const durationType: OptionType<number> = {
  describe: 'a duration (30m, 2h, 1d), stored in ms',
  check: positiveIntegerType.check,
  fromText(text): Checked<number> {
    try {
      return { ok: true, value: parseTtl(text) }
    } catch {
      return { ok: false, problem: 'is a duration like 30m, 2h, 1h30m or 1d, between 10s and 7d' }
    }
  },
}

/**
 * The project's lease options (docs/decisions.md explains each default): collisions with another
 * session's auto-lease are refused, because the promise is that two agents cannot edit one file at
 * once even when neither claimed it; auto-leases last 10 minutes from the last edit; claims last 2
 * hours; a session's leases end with the session.
 */
export const leaseOptions: OptionGroup<LeaseSettings> = {
  key: 'leases',
  label: 'lease settings',
  repair: 'set them again with sangam leases --auto-lease <rung> --session-end <release|keep>',
  unreadable: 'refuse',
  options: {
    autoLease: {
      name: 'auto-lease',
      type: rungType,
      default: 'refuse',
      description:
        "how an edit of a file under another session's auto-lease lands; off records no auto-leases",
    },
    autoLeaseTtlMs: {
      name: 'auto-lease-ttl',
      type: durationType,
      default: 10 * 60 * 1000,
      description: 'how long an auto-lease lasts after the last edit',
    },
    claimTtlMs: {
      name: 'claim-ttl',
      type: durationType,
      default: 2 * 60 * 60 * 1000,
      description: 'how long a claim lasts unless the claim says otherwise',
    },
    releaseOnSessionEnd: {
      name: 'release-on-session-end',
      type: booleanType,
      default: true,
      description: 'release every lease a session holds when the session ends',
    },
  },
}

/** The project's lease settings when nobody changed them. */
export const defaultLeaseSettings: LeaseSettings = defaultsOf(leaseOptions)

/** The reason every auto-lease carries. */
export const autoLeaseReason = 'editing'
