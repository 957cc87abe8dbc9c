import { openDatabaseFile } from '../project/store/project-database.ts'
import type { Db } from '../store/database.ts'
import type { StepHandle } from './hook-work.ts'

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

/** A short write, like presence: past this wait for the lock the hook goes on without it. */
const shortWriteTimeoutMs = 300

/**
 * Makes one short write of a planned step (`write`, given the open store) and tells `step` whether
 * it was done. Never throws: the hook's answer must not depend on it. Returns what went wrong,
 * prefixed by `what` (`codex endpoint not recorded`), for the heartbeat, or null.
 */
export function writeHookStep(
  databaseFile: string,
  what: string,
  write: (db: Db) => void,
  step?: StepHandle,
): string | null {
  try {
    const db = openHookStore(databaseFile, shortWriteTimeoutMs)
    try {
      write(db)
    } finally {
      db.close()
    }
    step?.done()
    return null
  } catch (error) {
    step?.fail(error)
    return `${what}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`
  }
}
