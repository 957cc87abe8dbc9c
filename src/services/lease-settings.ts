import { defaultLeaseSettings } from '../core/lease-settings.ts'
import { type LeaseSettings, leaseSettingsSchema } from '../protocol/lease.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import type { Db } from '../store/database.ts'
import { readSetting, writeSetting } from '../store/project-table.ts'

/**
 * The project's lease settings live under one key of the `setting` table, as the fields someone
 * set; the rest take the defaults, so a default changed in a later sangam reaches every project.
 */
const settingKey = 'leases'
const storedSchema = leaseSettingsSchema.partial()
type StoredSettings = ReturnType<typeof storedSchema.parse>

export function readLeaseSettings(db: Db): LeaseSettings {
  const value = readSetting(db, settingKey)
  if (value === undefined) return defaultLeaseSettings
  const parsed = storedSchema.safeParse(value)
  if (parsed.success) return withDefaults(parsed.data)
  throw new SangamError(
    ErrorCode.StoreIncompatible,
    `the project's lease settings are unreadable (${parsed.error.issues[0]?.message ?? 'bad value'}); ` +
      'set them again with sangam leases --auto-lease <rung> --session-end <release|keep>',
  )
}

/** Sets some fields and returns the resulting settings. Unreadable stored settings are replaced. */
export function writeLeaseSettings(db: Db, changes: StoredSettings): LeaseSettings {
  const current = storedSchema.safeParse(readSetting(db, settingKey) ?? {})
  const merged = storedSchema.parse({ ...(current.success ? current.data : {}), ...dropUnset(changes) })
  writeSetting(db, settingKey, merged)
  return withDefaults(merged)
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
