import { defaultLeaseSettings } from '../../core/leases/settings.ts'
import type { AutoLeaseRung, LeaseSettings } from '../../protocol/lease.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { readSetting, writeSetting } from '../../store/project-table.ts'

/**
 * The project's lease settings live under one key of the `setting` table, as the fields someone
 * set; the rest take the defaults, so a default changed in a later sangam reaches every project.
 *
 * Parsed with plain type guards rather than the protocol's zod schema: every edit hook reads them,
 * and loading zod would cost that hook more than everything else it does (docs/performance.md).
 */
const settingKey = 'leases'
type StoredSettings = Partial<LeaseSettings>

export function readLeaseSettings(db: Db): LeaseSettings {
  const value = readSetting(db, settingKey)
  if (value === undefined) return defaultLeaseSettings
  const parsed = parseStoredSettings(value)
  if (typeof parsed !== 'string') return withDefaults(parsed)
  throw new SangamError(
    ErrorCode.StoreIncompatible,
    `the project's lease settings are unreadable (${parsed}); ` +
      'set them again with sangam leases --auto-lease <rung> --session-end <release|keep>',
  )
}

/** Sets some fields and returns the resulting settings. Unreadable stored settings are replaced. */
export function writeLeaseSettings(db: Db, changes: StoredSettings): LeaseSettings {
  const current = parseStoredSettings(readSetting(db, settingKey) ?? {})
  const merged = { ...(typeof current === 'string' ? {} : current), ...dropUnset(changes) }
  const checked = parseStoredSettings(merged)
  if (typeof checked === 'string') throw new SangamError(ErrorCode.InvalidInput, `lease settings: ${checked}`)
  writeSetting(db, settingKey, checked)
  return withDefaults(checked)
}

const rungs: readonly AutoLeaseRung[] = ['off', 'advise', 'warn', 'refuse']

/** The fields set in a stored value (unknown keys dropped), or why it is unreadable. */
function parseStoredSettings(value: unknown): StoredSettings | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const stored = value as Record<string, unknown>
  const parsed: { -readonly [K in keyof LeaseSettings]?: LeaseSettings[K] } = {}
  const { autoLease, autoLeaseTtlMs, claimTtlMs, releaseOnSessionEnd } = stored
  if (autoLease !== undefined) {
    if (!rungs.includes(autoLease as AutoLeaseRung)) return `autoLease is one of ${rungs.join(', ')}`
    parsed.autoLease = autoLease as AutoLeaseRung
  }
  if (autoLeaseTtlMs !== undefined) {
    if (!isPositiveInteger(autoLeaseTtlMs)) return 'autoLeaseTtlMs is not a positive integer'
    parsed.autoLeaseTtlMs = autoLeaseTtlMs
  }
  if (claimTtlMs !== undefined) {
    if (!isPositiveInteger(claimTtlMs)) return 'claimTtlMs is not a positive integer'
    parsed.claimTtlMs = claimTtlMs
  }
  if (releaseOnSessionEnd !== undefined) {
    if (typeof releaseOnSessionEnd !== 'boolean') return 'releaseOnSessionEnd is not true or false'
    parsed.releaseOnSessionEnd = releaseOnSessionEnd
  }
  return parsed
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
}

function withDefaults(stored: StoredSettings): LeaseSettings {
  return {
    autoLease: stored.autoLease ?? defaultLeaseSettings.autoLease,
    autoLeaseTtlMs: stored.autoLeaseTtlMs ?? defaultLeaseSettings.autoLeaseTtlMs,
    claimTtlMs: stored.claimTtlMs ?? defaultLeaseSettings.claimTtlMs,
    releaseOnSessionEnd: stored.releaseOnSessionEnd ?? defaultLeaseSettings.releaseOnSessionEnd,
  }
}

function dropUnset(changes: StoredSettings): StoredSettings {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
}
