import { syncOptions } from '../../core/sync/settings.ts'
import type { SyncSettings } from '../../core/sync/share.ts'
import type { Db } from '../../store/database.ts'
import { readOptionGroup, writeOptionGroup } from '../options/option-store.ts'

/** What this replica shares: the `sync` group of project options (`core/sync/settings.ts`). */
export function readSyncSettings(db: Db): SyncSettings {
  return readOptionGroup(db, syncOptions)
}

export function writeSyncSettings(db: Db, changes: Partial<SyncSettings>): SyncSettings {
  return writeOptionGroup(db, syncOptions, changes)
}
