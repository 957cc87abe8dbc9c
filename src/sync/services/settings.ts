import { readOptionGroup, writeOptionGroup } from '../../options/services/option-store.ts'
import type { Db } from '../../store/database.ts'
import { syncOptions } from '../core/settings.ts'
import type { SyncSettings } from '../core/share.ts'

/** What this replica shares: the `sync` group of project options (`sync/core/settings.ts`). */
export function readSyncSettings(db: Db): SyncSettings {
  return readOptionGroup(db, syncOptions)
}

export function writeSyncSettings(db: Db, changes: Partial<SyncSettings>): SyncSettings {
  return writeOptionGroup(db, syncOptions, changes)
}
