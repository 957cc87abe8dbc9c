import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { test } from 'node:test'
import { ErrorCode, isSangamError } from '../../shared/sangam-error.ts'
import { ServerIntegrationLock } from './server-integration-lock.ts'

/** A loopback port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

test('an unreachable server: a grant says nothing moved; a release, which may follow a publish, says how to free the lock', async () => {
  const port = await deadPort()
  const lock = new ServerIntegrationLock(
    { url: `http://127.0.0.1:${port}`, projectId: 'prj_x', key: 'k' },
    { machine: 'm_1', staleAfterMs: 30 * 60_000, timeoutMs: 2000 },
  )
  const unconfirmed = (pattern: RegExp) => (error: unknown) =>
    isSangamError(error) && error.code === ErrorCode.Unconfirmed && pattern.test(error.message)
  await assert.rejects(
    lock.acquire({ lane: 'a', owner: 'o', task: null }),
    unconfirmed(
      /ECONNREFUSED\. The lock request is unconfirmed: the integration lock is kept by the team server, which did not answer; nothing moved/,
    ),
  )
  await assert.rejects(
    lock.release({ token: 4 }),
    unconfirmed(
      /The lock release is unconfirmed: the team server may still hold the integration lock for this lane: run sangam sync again in it .*stale after 30 min/,
    ),
  )
})
