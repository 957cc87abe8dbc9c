import { join } from 'node:path'
import { after, before } from 'node:test'
import { SyncClient } from '../server/test/helpers/sync-client.ts'
import { newProjectId, newProjectKey } from '../server/test/helpers/sync-fixture.ts'
import { leaseLogActionSchema } from '../src/leases/protocol/lease.ts'
import { writeLeaseSettings } from '../src/leases/services/settings.ts'
import { readLeaseLog } from '../src/leases/store/lease-table.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { ManualClock } from '../src/shared/clock.ts'
import { leasesResponseSchema } from '../src/sync/protocol/lease.ts'
import { ServerLeaseArbiter } from '../src/sync/services/server-arbiter.ts'
import { RecordApplier } from '../src/sync/store/inbound.ts'
import { startSyncState } from '../src/sync/store/state-table.ts'
import { type ClockedServer, startClockedServer } from './helpers/clocked-server.ts'
import { leaseArbiterContract, serverArbiter } from './helpers/lease-arbiter-contract.ts'
import { tmpDir } from './helpers/tmp-git-repo.ts'

/**
 * The lease arbiter contract against the team server: `ServerLeaseArbiter` on a replica, talking
 * to the real Worker in real workerd, one fresh project per test. Time is faked on both sides.
 */

const start = Date.parse('2026-11-30T10:00:00Z')
let server: ClockedServer

before(async () => {
  server = await startClockedServer(start)
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

leaseArbiterContract('ServerLeaseArbiter', serverArbiter, async () => {
  await server.setTime(start)
  const dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  const clock = new ManualClock(start)
  const client = new SyncClient(server.url, newProjectId(), newProjectKey())
  const created = await client.create()
  if (created.status !== 201) throw new Error(`create failed: ${created.status}`)
  const endpoint = { url: server.url, projectId: client.projectId, key: client.key }
  startSyncState(db, server.url, client.projectId, start)
  const applier = new RecordApplier(db, { serverUrl: server.url, projectId: client.projectId })
  let cursor = 0
  return {
    arbiter: new ServerLeaseArbiter(db, endpoint, clock),
    now: () => clock.now(),
    advance: async (ms) => {
      clock.advance(ms)
      await server.setTime(clock.now())
    },
    storedLeases: async () => leasesResponseSchema.parse((await client.request('leases')).body).leases,
    log: async () => {
      // As a client learns them: the server's records applied to the replica, beside its own log.
      const { records } = await client.pullAll(cursor)
      cursor = applier.apply(records, clock.now()).cursor
      return readLeaseLog(db, 0, leaseLogActionSchema.options, 1000)
    },
    setSettings: (changes) => {
      writeLeaseSettings(db, changes)
    },
    // Port 9 (discard) on loopback: nothing listens, so the connection is refused at once.
    cutOff: () => new ServerLeaseArbiter(db, { ...endpoint, url: 'http://127.0.0.1:9' }, clock),
    [Symbol.asyncDispose]: async () => {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
})
