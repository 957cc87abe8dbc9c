import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { PresenceResponse } from '../../src/sync/protocol/presence.ts'
import type { SyncedRecord } from '../../src/sync/protocol/record.ts'
import { pingMessage } from '../../src/sync/protocol/upstream.ts'
import { expectOk, SyncSocket } from './helpers/sync-client.ts'
import { alice, bob, eventDraft, eventDrafts } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer()
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

const gseqs = (records: readonly SyncedRecord[]): number[] => records.map((record) => record.gseq)
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)

test('a subscriber gets the backlog after its cursor, then live records, each gseq once and in order', async () => {
  const client = await server.newProject()
  await client.push(eventDrafts('before', 10))
  const late = await client.subscribe(alice, 4)
  const fresh = await client.subscribe(bob, 0)
  await client.push(eventDrafts('after', 5))
  assert.deepEqual(gseqs(await late.recordsThrough(15)), range(5, 15))
  const all = await fresh.recordsThrough(15)
  assert.deepEqual(gseqs(all), range(1, 15))
  assert.deepEqual(all, (await client.pullAll()).records)
  await Promise.all([late.close(), fresh.close()])
})

test('a dropped socket reconnects and resumes from its last gseq: nothing skipped, nothing repeated', async () => {
  const client = await server.newProject()
  const socket = await client.subscribe(alice, 0)
  await client.push(eventDrafts('first', 20))
  const seen = await socket.recordsThrough(20)
  socket.drop()
  await client.push(eventDrafts('while-away', 30))
  const resumed = await client.subscribe(alice, seen.at(-1)?.gseq ?? 0)
  await client.push(eventDrafts('back', 5))
  seen.push(...(await resumed.recordsThrough(55)))
  assert.deepEqual(gseqs(seen), range(1, 55))
  await resumed.close()
})

test('a long backlog arrives over the socket in order, in several messages', async () => {
  const client = await server.newProject()
  for (let batch = 0; batch < 10; batch++)
    await client.push(eventDrafts(`backlog${batch}`, 500), `backlog-${batch}-x`)
  const socket = await client.subscribe(alice, 0)
  let messages = 0
  const records: SyncedRecord[] = []
  while ((records.at(-1)?.gseq ?? 0) < 5000) {
    records.push(...(await socket.next('records')).records)
    messages += 1
  }
  assert.deepEqual(gseqs(records), range(1, 5000))
  assert.ok(messages >= 10, `5,000 records came in ${messages} messages`)
  await socket.close()
})

test('a push over the socket is answered and fanned out to every subscriber', async () => {
  const client = await server.newProject()
  const pusher = await client.subscribe(alice, 0)
  const watcher = await client.subscribe(bob, 0)
  pusher.send({
    type: 'push',
    requestId: 'r1',
    records: [eventDraft('via-socket'), eventDraft('via-socket-2')],
  })
  const pushed = await pusher.next('pushed')
  assert.equal(pushed.requestId, 'r1')
  assert.deepEqual(
    pushed.results.map((result) => [result.gseq, result.status]),
    [
      [1, 'created'],
      [2, 'created'],
    ],
  )
  assert.deepEqual(gseqs(await watcher.recordsThrough(2)), [1, 2])
  assert.deepEqual(gseqs(await pusher.recordsThrough(2)), [1, 2])
  await Promise.all([pusher.close(), watcher.close()])
})

test('presence: subscribers hear who comes online and goes offline; activity is remembered', async () => {
  const client = await server.newProject()
  const watcher = await client.subscribe(bob, 0)
  const other = await client.subscribe(alice, 0)
  const online = await watcher.next('presence')
  assert.deepEqual(
    online.presence
      .filter((entry) => entry.online)
      .map((entry) => entry.actor.human)
      .sort(),
    [alice.human, bob.human],
  )
  await client.push([eventDraft('work', alice)])
  other.drop()
  const offline = await watcher.next('presence')
  const aliceEntry = offline.presence.find((entry) => entry.actor.human === alice.human)
  assert.equal(aliceEntry?.online, false)
  assert.equal(aliceEntry?.connections, 0)
  const { presence } = expectOk<PresenceResponse>(await client.request('presence'))
  assert.deepEqual(presence[0]?.actor, bob)
  assert.equal(presence[0]?.online, true)
  assert.equal(presence[0]?.lastActiveAt, null)
  assert.ok(presence[1]?.lastActiveAt, 'alice pushed, so her last activity is known')
  await watcher.close()
})

test('an activity message marks a session of the connection active', async () => {
  const client = await server.newProject()
  const socket = await client.subscribe(bob, 0)
  const session = { ...bob, sessionId: 'session-bob-2' }
  socket.send({ type: 'activity', actor: session })
  socket.send({ type: 'push', requestId: 'after-activity', records: [eventDraft('marker', bob)] })
  await socket.next('pushed')
  const { presence } = expectOk<PresenceResponse>(await client.request('presence'))
  const entry = presence.find((candidate) => candidate.actor.sessionId === 'session-bob-2')
  assert.ok(entry?.lastActiveAt, 'the session is listed with its activity')
  assert.equal(entry.online, false, 'only the subscribed actor is connected')
  await socket.close()
})

test('a cursor beyond the head is refused on the socket, which stays open for a good one', async () => {
  const client = await server.newProject()
  await client.push(eventDrafts('x', 3))
  const socket = await SyncSocket.open(client.url('socket').replace(/^http/, 'ws'), client.key)
  socket.send({ type: 'subscribe', actor: alice, clientId: 'client-ahead-1', after: 50 })
  const refused = await socket.next('error')
  assert.equal(refused.error.code, 'CURSOR_AHEAD')
  assert.equal(refused.error.headGseq, 3)
  socket.send({ type: 'subscribe', actor: alice, clientId: 'client-ahead-1', after: 1 })
  assert.equal((await socket.next('welcome')).headGseq, 3)
  assert.deepEqual(gseqs(await socket.recordsThrough(3)), [2, 3])
  await socket.close()
})

test('the keep-alive ping is answered without a subscription', async () => {
  const client = await server.newProject()
  const socket = await SyncSocket.open(client.url('socket').replace(/^http/, 'ws'), client.key)
  socket.send(pingMessage)
  assert.deepEqual(await socket.next('pong'), { type: 'pong' })
  await socket.close()
})
