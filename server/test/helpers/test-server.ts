import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLocalServer } from '../../../src/serve/local-server.ts'
import { createLogger } from '../../../src/shared/logger.ts'
import { SyncClient } from './sync-client.ts'
import { newProjectId, newProjectKey } from './sync-fixture.ts'

/** The real Worker in real workerd (through the same service `sangam serve` uses), on a free loopback port. */
export interface TestServer extends AsyncDisposable {
  readonly url: string
  readonly dataDir: string
  /** Registers a fresh project and returns a client holding its key. */
  newProject(): Promise<SyncClient>
}

export async function startTestServer(vars: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'sangam-server-')))
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    log: createLogger(process.stderr, 'error'),
    vars,
  })
  return {
    url: server.url,
    dataDir,
    async newProject() {
      const client = new SyncClient(server.url, newProjectId(), newProjectKey())
      const created = await client.create()
      if (created.status !== 201)
        throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`)
      return client
    },
    async [Symbol.asyncDispose]() {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
