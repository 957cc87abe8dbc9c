import { defaultSyncSettings, type SyncSettings } from '../../core/sync/share.ts'
import type { Db } from '../../store/database.ts'
import { readSetting, writeSetting } from '../../store/project-table.ts'

/** What this replica shares, under one key of the `setting` table; unset fields take the defaults. */
const settingKey = 'sync'

export function readSyncSettings(db: Db): SyncSettings {
  const value = readSetting(db, settingKey)
  const stored = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
  return {
    shareToolOutput:
      typeof stored.shareToolOutput === 'boolean'
        ? stored.shareToolOutput
        : defaultSyncSettings.shareToolOutput,
  }
}

export function writeSyncSettings(db: Db, changes: Partial<SyncSettings>): SyncSettings {
  const merged = { ...readSyncSettings(db), ...changes }
  writeSetting(db, settingKey, merged)
  return merged
}
