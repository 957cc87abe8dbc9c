import { openDatabaseFile } from '../project/store/project-database.ts'
import type { Db } from '../store/database.ts'

/**
 * Opens the project's store for one of a hook's short writes, waiting at most `busyTimeoutMs` for
 * its lock in all: opening included. SQLite waits for a lock synchronously, so the hook's
 * watchdog cannot fire during the wait; opening alone would otherwise wait the store's setup
 * patience (a minute, for many processes migrating at once) behind a store held in EXCLUSIVE
 * mode, and the host with it. Past the wait the step fails, and the hook keeps it (hook-work.ts).
 */
export function openHookStore(file: string, busyTimeoutMs: number): Db {
  return openDatabaseFile(file, { busyTimeoutMs, setupTimeoutMs: busyTimeoutMs })
}
