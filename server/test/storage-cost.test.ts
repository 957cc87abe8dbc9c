import assert from 'node:assert/strict'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { SyncError } from '../../src/sync/protocol/error.ts'
import { SyncClient, SyncSocket } from './helpers/sync-client.ts'
import { newProjectId, newProjectKey } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer({ PROJECTS_PER_HOUR_PER_ADDRESS: '4', PROJECTS_PER_HOUR: '7' })
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

/** Every SQLite file of the project objects (not the transient shared-memory files), with its size. */
function storage(): Map<string, number> {
  const files = new Map<string, number>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (!entry.name.endsWith('-shm')) files.set(path, statSync(path).size)
    }
  }
  walk(join(server.dataDir, 'durable-objects'))
  return files
}

/** Bytes written since `before`, leaving out the empty one-page database workerd opens for any object it starts. */
function bytesWrittenSince(before: Map<string, number>): number {
  let written = 0
  for (const [path, size] of storage()) {
    const grown = size - (before.get(path) ?? 0)
    const emptyDatabase = !before.has(path) && path.endsWith('.sqlite') && size <= 4096
    if (grown > 0 && !emptyDatabase) written += grown
  }
  return written
}

test('requests to projects that were never created write nothing, whatever they ask', async () => {
  const owner = await server.newProject()
  const before = storage()
  // 15 ids × 3 refused requests stays under the failed-authentication limit (60 a minute).
  for (let index = 0; index < 15; index++) {
    const stranger = new SyncClient(server.url, newProjectId(), newProjectKey())
    const action = (['info', 'pull', 'presence', 'leases'] as const)[index % 4] ?? 'info'
    assert.equal((await stranger.request(action)).status, 401)
    const push = await stranger.request('push', { body: { clientId: 'stranger-1', records: [] } })
    assert.ok(push.status === 401 || push.status === 400, `push: ${push.status}`)
    await assert.rejects(
      SyncSocket.open(stranger.url('socket').replace(/^http/, 'ws'), stranger.key),
      /refused with 401/,
    )
  }
  assert.equal(bytesWrittenSince(before), 0, 'no project object wrote anything')
  assert.equal((await owner.request('info')).status, 200)
})

test('past 60 failed authentications a minute from one address, the Worker refuses before any object starts', async () => {
  const from = { 'cf-connecting-ip': '203.0.113.9' }
  const team = await server.newProject()
  const statuses: number[] = []
  // Bounded: the bucket refills at one a second, so a few more than 60 may pass while this runs.
  while (statuses.at(-1) !== 429 && statuses.length < 90) {
    const stranger = new SyncClient(server.url, newProjectId(), newProjectKey())
    statuses.push((await stranger.request('info', { headers: from })).status)
  }
  assert.deepEqual(statuses.slice(0, 60), Array(60).fill(401))
  assert.equal(statuses.at(-1), 429, `refused after ${statuses.length - 1} failures`)
  const filesBefore = storage().size
  const refused = await new SyncClient(server.url, newProjectId(), newProjectKey()).request('info', {
    headers: from,
  })
  assert.equal(refused.status, 429)
  assert.equal((refused.body as SyncError).error.code, 'RATE_LIMITED')
  assert.equal(storage().size, filesBefore, 'no object was started for the refused request')
  const other = await new SyncClient(server.url, newProjectId(), newProjectKey()).request('info', {
    headers: { 'cf-connecting-ip': '203.0.113.10' },
  })
  assert.equal(other.status, 401, 'other addresses are not held up')
  const teammate = await team.request('info', { headers: from })
  assert.equal(teammate.status, 200, 'nor a project that has shown its key: the limit cannot shut a team out')
})

test('creating projects is rate limited per client address and in all', async () => {
  // On Cloudflare the edge sets this header; locally Miniflare sets it from the socket.
  const createFrom = (address: string) =>
    new SyncClient(server.url, newProjectId(), newProjectKey()).request('create', {
      method: 'POST',
      headers: { 'cf-connecting-ip': address },
    })
  const fromOne: number[] = []
  for (let index = 0; index < 6; index++) fromOne.push((await createFrom('192.0.2.1')).status)
  // The first two tests created one project each from 127.0.0.1, not from this address.
  assert.deepEqual(fromOne, [201, 201, 201, 201, 429, 429], 'four an hour from one address')
  const refused = await createFrom('192.0.2.1')
  assert.equal((refused.body as SyncError).error.code, 'RATE_LIMITED')
  assert.ok(((refused.body as SyncError).error.retryAfterMs ?? 0) > 0)
  const fromOthers = [(await createFrom('192.0.2.2')).status, (await createFrom('192.0.2.3')).status]
  // Seven an hour in all: two from the first tests, four above, one more here.
  assert.deepEqual(fromOthers, [201, 429], 'the global limit holds across addresses')
  const before = storage()
  for (let index = 0; index < 10; index++) await createFrom(`198.51.100.${index}`)
  assert.deepEqual(storage(), before, 'refused creations started no object')
})
