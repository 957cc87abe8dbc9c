/**
 * One side of the claim race in sync-leases.test.ts, as a process of its own: `count` actors of
 * this machine claim one pattern at once through the team server (this replica's attachment), and
 * the outcomes are printed as JSON on stdout.
 *
 *   node --import tsx test/helpers/sync-claim-racer.ts <database> <projectDir> <count> <human-prefix> <pattern>
 */
import { chooseLeaseArbiter } from '../../src/project/services/lease-arbiter.ts'
import { openDatabaseFile } from '../../src/project/store/project-database.ts'
import { systemClock } from '../../src/shared/clock.ts'

const [database = '', projectDir = '', count = '0', prefix = 'racer', pattern = 'src/**'] =
  process.argv.slice(2)
const db = openDatabaseFile(database)
const arbiter = chooseLeaseArbiter(db, projectDir, systemClock, { server: { timeoutMs: 60_000 } })
const outcomes = await Promise.all(
  Array.from({ length: Number(count) }, async (_, i) => {
    try {
      const result = await arbiter.claim({
        actor: { human: `${prefix}${i}@x.dev`, vendor: null, sessionId: null },
        patterns: [pattern],
        reason: `racer ${i}`,
        ttlMs: null,
      })
      return result.granted
        ? { granted: true, token: result.leases[0]?.token ?? 0 }
        : { granted: false, token: result.conflicts[0]?.lease.token ?? 0 }
    } catch (error) {
      return { error: (error as Error).message }
    }
  }),
)
db.close()
process.stdout.write(JSON.stringify(outcomes))
