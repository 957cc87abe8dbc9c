import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type LocalServer, startLocalServer } from '../../../src/serve/local-server.ts'
import { createLogger } from '../../../src/shared/logger.ts'
import { SyncClient } from './sync-client.ts'
import { newProjectId, newProjectKey } from './sync-fixture.ts'

/** The real Worker in real workerd (through the same service `sangam serve` uses), on a free loopback port. */
export interface TestServer extends AsyncDisposable {
  /** The URL; a restart keeps it (same port). */
  readonly url: string
  readonly dataDir: string
  /** Registers a fresh project and returns a client holding its key. */
  newProject(): Promise<SyncClient>
  /**
   * Stops workerd and starts it again on the same data and port, with these vars instead;
   * `whileStopped` runs in between (a test changing the data dir as an older server left it).
   */
  restart(vars?: Record<string, string>, whileStopped?: () => void): Promise<void>
}

export async function startTestServer(vars: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'sangam-server-')))
  const start = (port: number, with_: Record<string, string>): Promise<LocalServer> =>
    startLocalServer({
      host: '127.0.0.1',
      port,
      dataDir,
      log: createLogger(process.stderr, 'error'),
      vars: with_,
    })
  let server = await start(0, vars)
  const url = server.url
  return {
    url,
    dataDir,
    async newProject() {
      const client = new SyncClient(url, newProjectId(), newProjectKey())
      const created = await client.create()
      if (created.status !== 201)
        throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`)
      return client
    },
    async restart(next = vars, whileStopped) {
      await server.close()
      whileStopped?.()
      server = await start(Number(new URL(url).port), next)
    },
    async [Symbol.asyncDispose]() {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
