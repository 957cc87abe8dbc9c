import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { SyncClient } from '../server/test/helpers/sync-client.ts'
import { newProjectId, newProjectKey } from '../server/test/helpers/sync-fixture.ts'
import { isSangamError } from '../src/shared/sangam-error.ts'
import { ServerIntegrationLock } from '../src/sync/services/server-integration-lock.ts'
import { type ClockedServer, startClockedServer } from './helpers/clocked-server.ts'
import { integrationLockContract } from './helpers/integration-lock-contract.ts'

/**
 * The integration lock contract against the team server: `ServerIntegrationLock` of two machines
 * talking to the real Worker in real workerd, one fresh project per test; the server's clock is
 * the one faked.
 */
const start = Date.parse('2026-12-02T08:00:00Z')
const staleAfterMs = 30 * 60_000
let server: ClockedServer
let now = start

before(async () => {
  server = await startClockedServer(start)
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

async function project() {
  now = start
  await server.setTime(now)
  const client = new SyncClient(server.url, newProjectId(), newProjectKey())
  const created = await client.create()
  if (created.status !== 201) throw new Error(`create failed: ${created.status}`)
  const endpoint = { url: server.url, projectId: client.projectId, key: client.key }
  const machine = (id: string) => new ServerIntegrationLock(endpoint, { machine: id, staleAfterMs })
  return { endpoint, machine }
}

integrationLockContract('ServerIntegrationLock', async () => {
  const { machine } = await project()
  return {
    locks: [machine('m_alice'), machine('m_bob')],
    staleAfterMs,
    advance: async (ms) => {
      now += ms
      await server.setTime(now)
    },
    [Symbol.asyncDispose]: async () => {},
  }
})

test('a takeover of a holder the server heard from recently is refused, naming it and when a takeover will work', async () => {
  const { machine } = await project()
  const alice = machine('m_alice')
  const held = await alice.acquire({ lane: 'a', owner: 'alice@example.com', task: null })
  assert.ok(held.granted)
  now += staleAfterMs - 60_000
  await server.setTime(now)
  assert.equal(await alice.heartbeat(held.holder), true)
  now += staleAfterMs - 1
  await server.setTime(now)
  await assert.rejects(
    machine('m_bob').takeOver({ lane: 'b', owner: 'bob@example.com', reason: 'is alice there?' }),
    (error: unknown) =>
      isSangamError(error) &&
      error.code === 'LANE_REFUSED' &&
      error.wireCode === 'lock-not-stale' &&
      /held by lane a@m_alice of alice@example\.com/.test(error.message) &&
      /silent for 30 min/.test(error.next ?? ''),
  )
  assert.equal((await alice.current())?.token, held.holder.token)
})

test('the takeover is recorded with the previous holder and the reason', async () => {
  const { endpoint, machine } = await project()
  const held = await machine('m_alice').acquire({ lane: 'a', owner: 'alice@example.com', task: 'task-1' })
  assert.ok(held.granted)
  now += staleAfterMs
  await server.setTime(now)
  await machine('m_bob').takeOver({ lane: 'b', owner: 'bob@example.com', reason: 'alice is on leave' })
  const client = new SyncClient(endpoint.url, endpoint.projectId, endpoint.key)
  const state = (await client.request('lock')).body as {
    events: {
      kind: string
      holder: { lane: string }
      previous: { lane: string; task: string } | null
      reason: string
    }[]
  }
  const last = state.events.at(-1)
  assert.equal(last?.kind, 'taken-over')
  assert.equal(last?.holder.lane, 'b')
  assert.deepEqual(
    [last?.previous?.lane, last?.previous?.task, last?.reason],
    ['a', 'task-1', 'alice is on leave'],
  )
})

test('with the server unreachable nothing is granted: the lock request is UNCONFIRMED', async () => {
  const { endpoint } = await project()
  // Port 9 (discard) on loopback: nothing listens, so the connection is refused at once.
  const cut = new ServerIntegrationLock(
    { ...endpoint, url: 'http://127.0.0.1:9' },
    { machine: 'm_a', staleAfterMs },
  )
  await assert.rejects(
    cut.acquire({ lane: 'a', owner: 'alice@example.com', task: null }),
    (error: unknown) =>
      isSangamError(error) &&
      error.code === 'UNCONFIRMED' &&
      /lock request is unconfirmed/.test(error.message),
  )
  await assert.rejects(
    cut.release({ token: 1 }),
    (error: unknown) => isSangamError(error) && error.code === 'UNCONFIRMED',
  )
})
