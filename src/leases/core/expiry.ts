import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Lease } from '../protocol/lease.ts'

const second = 1000
const minute = 60 * second
const hour = 60 * minute
const day = 24 * hour

/** Bounds on a TTL: shorter is a typo; a lease held for more than a week is a lock nobody remembers. */
export const minTtlMs = 10 * second
export const maxTtlMs = 7 * day

/** A lease is live until its expiry, exclusive: at `expiresAt` it is gone. */
export function isLive(lease: Lease, now: number): boolean {
  return lease.expiresAt > now
}

export function liveLeases(leases: readonly Lease[], now: number): Lease[] {
  return leases.filter((lease) => isLive(lease, now))
}

/**
 * Parses a TTL such as `90m`, `2h`, `1h30m`, `45s` or `1d` into milliseconds: the one duration
 * syntax of the CLI's `--ttl` options and the MCP `ctx_claim` tool. Throws INVALID_INPUT for
 * anything else (a bare number too: minutes or seconds would be a guess), or for a TTL outside
 * [10 s, 7 d]. `label` names the input in the message (`--claim-ttl`).
 */
export function parseTtl(text: string, label = 'the ttl'): number {
  const trimmed = text.trim().toLowerCase()
  const parts = [...trimmed.matchAll(/(\d+)\s*([smhd])/g)]
  const covered = parts.map((part) => part[0]).join('')
  if (parts.length === 0 || covered.replace(/\s/g, '') !== trimmed.replace(/\s/g, '')) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${label} must be a duration like 30m, 2h, 1h30m or 1d; got "${text}"`,
    )
  }
  const units: Record<string, number> = { s: second, m: minute, h: hour, d: day }
  const ms = parts.reduce((sum, part) => sum + Number(part[1]) * (units[part[2] ?? 's'] ?? second), 0)
  if (ms < minTtlMs || ms > maxTtlMs) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${label} must be between 10s and 7d (a lease lasts no longer); got "${text}"`,
    )
  }
  return ms
}
