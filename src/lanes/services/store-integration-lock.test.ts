import { join } from 'node:path'
import { integrationLockContract } from '../../../test/helpers/integration-lock-contract.ts'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { StoreIntegrationLock } from './store-integration-lock.ts'

integrationLockContract('the store lock', async () => {
  const dir = tmpDir()
  const clock = new ManualClock(Date.parse('2026-12-02T07:00:00Z'))
  const file = join(dir.path, 'sangam.db')
  const db = openDatabaseFile(file, { clock })
  const otherDb = openDatabaseFile(file, { clock })
  return {
    // Two connections to one file: two processes on one machine.
    locks: [new StoreIntegrationLock(db, clock), new StoreIntegrationLock(otherDb, clock)],
    // The store lock leaves staleness to sync (lanes.lock-stale-minutes, 30 by default).
    staleAfterMs: 30 * 60_000,
    advance: async (ms) => clock.advance(ms),
    [Symbol.asyncDispose]: async () => {
      db.close()
      otherDb.close()
      await dir[Symbol.asyncDispose]()
    },
  }
})
