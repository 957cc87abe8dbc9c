import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { SyncClient, SyncSocket } from './helpers/sync-client.ts'
import { eventDrafts, newProjectId, newProjectKey } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer()
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

const unauthorized = { error: { code: 'UNAUTHORIZED', message: 'unknown project or wrong key' } }

test('creating a project stores it; the same key again is a harmless retry', async () => {
  const client = new SyncClient(server.url, newProjectId(), newProjectKey())
  const first = await client.create()
  assert.equal(first.status, 201)
  assert.deepEqual((first.body as { created: boolean }).created, true)
  const again = await client.create()
  assert.equal(again.status, 200)
  assert.deepEqual((again.body as { created: boolean }).created, false)
})

test('a second registration of a project id with another key is refused (trust on first use)', async () => {
  const owner = await server.newProject()
  const squatter = new SyncClient(server.url, owner.projectId, newProjectKey())
  const reply = await squatter.create()
  assert.equal(reply.status, 409)
  assert.equal((reply.body as { error: { code: string } }).error.code, 'PROJECT_TAKEN')
  assert.equal((await squatter.request('info')).status, 401)
  assert.equal((await owner.request('info')).status, 200)
})

test('a key too short to be random is refused at creation', async () => {
  const reply = await new SyncClient(server.url, newProjectId(), 'password123').create()
  assert.equal(reply.status, 400)
  assert.equal((reply.body as { error: { code: string } }).error.code, 'INVALID_REQUEST')
})

test('a wrong key reads nothing and writes nothing', async () => {
  const owner = await server.newProject()
  await owner.push(eventDrafts('secret', 3))
  const intruder = new SyncClient(server.url, owner.projectId, newProjectKey())
  for (const [action, body] of [
    ['info', undefined],
    ['pull', undefined],
    ['presence', undefined],
    ['leases', undefined],
    ['push', { clientId: 'intruder-1', records: eventDrafts('forged', 1) }],
  ] as const) {
    const reply = await intruder.request(action, body === undefined ? {} : { body })
    assert.equal(reply.status, 401, `${action} with a wrong key`)
    assert.deepEqual(reply.body, unauthorized)
    assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer/)
  }
  const { records } = await owner.pullAll()
  assert.deepEqual(
    records.map((record) => record.id),
    ['secret-0', 'secret-1', 'secret-2'],
  )
})

test('an unknown project answers exactly like a wrong key, so project ids cannot be probed', async () => {
  const stranger = new SyncClient(server.url, newProjectId(), newProjectKey())
  const owner = await server.newProject()
  const wrongKey = new SyncClient(server.url, owner.projectId, newProjectKey())
  for (const action of ['info', 'pull', 'presence'] as const) {
    const unknown = await stranger.request(action)
    const wrong = await wrongKey.request(action)
    assert.equal(unknown.status, wrong.status)
    assert.deepEqual(unknown.body, wrong.body)
  }
})

test("a client's valid key for its own project opens no other project", async () => {
  const mine = await server.newProject()
  const theirs = await server.newProject()
  await theirs.push(eventDrafts('theirs', 2))
  const crossing = new SyncClient(server.url, theirs.projectId, mine.key)
  assert.equal((await crossing.request('pull')).status, 401)
  assert.equal(
    (await crossing.request('push', { body: { clientId: 'crossing-1', records: eventDrafts('x', 1) } }))
      .status,
    401,
  )
  await assert.rejects(
    SyncSocket.open(crossing.url('socket').replace(/^http/, 'ws'), mine.key),
    /refused with 401/,
  )
  assert.equal((await theirs.pullAll()).records.length, 2)
})

test('a request without the Authorization header is refused before reaching the project', async () => {
  const owner = await server.newProject()
  const response = await fetch(owner.url('pull'))
  assert.equal(response.status, 401)
  const body = (await response.json()) as { error: { code: string; message: string } }
  assert.equal(body.error.code, 'UNAUTHORIZED')
  assert.match(body.error.message, /Authorization: Bearer/)
})

test('a key in the query string is refused, even the right one', async () => {
  const owner = await server.newProject()
  for (const name of ['key', 'token', 'access_token']) {
    const response = await fetch(owner.url('pull', `?${name}=${owner.key}`), {
      headers: { authorization: `Bearer ${owner.key}` },
    })
    assert.equal(response.status, 400)
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'KEY_IN_QUERY')
  }
})

test('the key in any query parameter, under any name, is refused', async () => {
  const owner = await server.newProject()
  for (const query of [
    `?k=${owner.key}`,
    `?after=0&cursor=${owner.key}`,
    `?x=prefix-${owner.key}`,
    `?${owner.key}=1`,
  ]) {
    const response = await fetch(owner.url('pull', query), {
      headers: { authorization: `Bearer ${owner.key}` },
    })
    assert.equal(response.status, 400, query)
    const body = (await response.json()) as { error: { code: string; message: string } }
    assert.equal(body.error.code, 'KEY_IN_QUERY')
    assert.equal(body.error.message.includes(owner.key), false, 'the refusal does not echo the key')
  }
  const fine = await fetch(owner.url('pull', '?after=0&limit=5'), {
    headers: { authorization: `Bearer ${owner.key}` },
  })
  assert.equal(fine.status, 200)
})

test('a WebSocket upgrade is authenticated by its header: none, wrong or unknown is refused', async () => {
  const owner = await server.newProject()
  const socketUrl = owner.url('socket').replace(/^http/, 'ws')
  await assert.rejects(SyncSocket.open(socketUrl, null), /refused with 401/)
  await assert.rejects(SyncSocket.open(socketUrl, newProjectKey()), /refused with 401/)
  const unknown = new SyncClient(server.url, newProjectId(), owner.key)
  await assert.rejects(
    SyncSocket.open(unknown.url('socket').replace(/^http/, 'ws'), owner.key),
    /refused with 401/,
  )
  await assert.rejects(SyncSocket.open(`${socketUrl}?key=${owner.key}`, null), /refused with 400/)
  const socket = await SyncSocket.open(socketUrl, owner.key)
  await socket.close()
})
