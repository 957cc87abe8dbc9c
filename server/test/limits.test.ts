import assert from 'node:assert/strict'
import { request } from 'node:http'
import { after, before, test } from 'node:test'
import type { SyncError } from '../../src/sync/protocol/error.ts'
import type { HealthResponse } from '../../src/sync/protocol/limits.ts'
import { alice, eventDraft, eventDrafts } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer({
    MAX_BODY_BYTES: '65536',
    MAX_RECORDS_PER_PUSH: '50',
    PUSHES_PER_SECOND: '2',
    PROJECT_PUSHES_PER_SECOND: '5',
  })
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

const errorOf = (body: unknown): SyncError['error'] => (body as SyncError).error

test('the server advertises the limits it was configured with', async () => {
  const health = (await (await fetch(`${server.url}/v1/health`)).json()) as HealthResponse
  assert.deepEqual(health.limits, {
    maxBodyBytes: 65536,
    maxRecordsPerPush: 50,
    pushesPerSecond: 2,
    maxPullLimit: 1000,
  })
})

test('a body over the size limit is refused by its declared length', async () => {
  const client = await server.newProject()
  const huge = eventDraft('huge', alice, 'x'.repeat(70_000))
  const reply = await client.request('push', { body: { clientId: 'client-big-1', records: [huge] } })
  assert.equal(reply.status, 413)
  assert.deepEqual(errorOf(reply.body).code, 'BODY_TOO_LARGE')
  assert.equal(errorOf(reply.body).limit, 65536)
  assert.deepEqual((await client.pull(0)).records, [])
})

test('a streamed body without a length is cut off at the limit', async () => {
  const client = await server.newProject()
  const url = new URL(client.url('push'))
  const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const upload = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.key}`, 'transfer-encoding': 'chunked' },
    })
    upload.on('response', (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8')
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    upload.on('error', reject)
    const chunk = 'x'.repeat(16_384)
    let written = 0
    // A write that returns false has still taken its chunk: it counts, and the next waits for
    // drain. (Not counting it once made this upload endless, until the server's drain cap cut it
    // off with a reset.)
    const writeMore = (): void => {
      while (written < 40) {
        written += 1
        if (!upload.write(chunk)) {
          upload.once('drain', writeMore)
          return
        }
      }
      upload.end()
    }
    writeMore()
  })
  assert.equal(reply.status, 413)
  assert.equal(errorOf(JSON.parse(reply.body)).code, 'BODY_TOO_LARGE')
})

test('a push over the record limit is refused whole and says how to fix it', async () => {
  const client = await server.newProject()
  const reply = await client.request('push', {
    body: { clientId: 'client-many-1', records: eventDrafts('many', 51) },
  })
  assert.equal(reply.status, 413)
  assert.equal(errorOf(reply.body).code, 'TOO_MANY_RECORDS')
  assert.equal(errorOf(reply.body).limit, 50)
  assert.match(errorOf(reply.body).message, /split the batch/)
  assert.deepEqual((await client.pull(0)).records, [])
  assert.equal((await client.push(eventDrafts('many', 50), 'client-many-2')).results.length, 50)
})

test('a client pushing faster than its rate is told when to retry; other addresses are not slowed', async () => {
  const client = await server.newProject()
  const replies = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      client.request('push', { body: { clientId: 'client-fast-1', records: [eventDraft(`fast-${index}`)] } }),
    ),
  )
  const limited = replies.filter((reply) => reply.status === 429)
  assert.ok(limited.length >= 6, `expected most of 10 pushes limited at 2/s, got ${limited.length}`)
  for (const reply of limited) {
    assert.equal(errorOf(reply.body).code, 'RATE_LIMITED')
    assert.ok((errorOf(reply.body).retryAfterMs ?? 0) > 0)
    assert.equal(reply.headers.get('retry-after'), '1')
  }
  const accepted = replies.filter((reply) => reply.status === 200).length
  assert.equal((await client.pull(0)).headGseq, accepted, 'a limited push appends nothing')
  const calm = await client.request('push', {
    body: { clientId: 'client-calm-1', records: [eventDraft('calm')] },
    headers: { 'cf-connecting-ip': '192.0.2.77' },
  })
  assert.equal(calm.status, 200, 'another address has its own budget')
  await new Promise((resolve) => setTimeout(resolve, 1100))
  assert.equal((await client.push([eventDraft('later')], 'client-fast-1')).results[0]?.status, 'created')
})

test('a new clientId per push does not escape the rate limit: it is kept per address', async () => {
  const client = await server.newProject()
  const from = { 'cf-connecting-ip': '192.0.2.80' }
  const replies = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      client.request('push', {
        body: { clientId: `client-fresh-${index}`, records: [eventDraft(`fresh-${index}`)] },
        headers: from,
      }),
    ),
  )
  const statuses = replies.map((reply) => reply.status)
  assert.ok(statuses.filter((status) => status === 429).length >= 5, `at 2/s, 8 pushes: ${statuses}`)
  await new Promise((resolve) => setTimeout(resolve, 1100))
})

test('many addresses together are held to the project rate', async () => {
  const client = await server.newProject()
  const replies = await Promise.all(
    Array.from({ length: 12 }, (_, index) =>
      client.request('push', {
        body: { clientId: 'client-crowd-1', records: [eventDraft(`crowd-${index}`)] },
        headers: { 'cf-connecting-ip': `198.51.100.${index + 1}` },
      }),
    ),
  )
  const limited = replies.filter((reply) => reply.status === 429)
  assert.ok(
    limited.length >= 6,
    `12 addresses at once against 5/s for the project: ${limited.length} limited`,
  )
  assert.match(errorOf(limited[0]?.body).message, /this project takes at most 5 pushes a second/)
  await new Promise((resolve) => setTimeout(resolve, 1100))
})

test('a socket gets an error for an oversize, malformed or over-rate message, and stays usable', async () => {
  const client = await server.newProject()
  const socket = await client.subscribe(alice, 0)
  socket.send({ type: 'push', requestId: 'big', records: [eventDraft('big', alice, 'y'.repeat(70_000))] })
  const big = await socket.next('error')
  assert.equal(big.error.code, 'BODY_TOO_LARGE')
  socket.send('not json')
  assert.equal((await socket.next('error')).error.code, 'INVALID_REQUEST')
  socket.send({ type: 'subscribe', after: 0 })
  assert.match((await socket.next('error')).error.message, /^actor: /)
  socket.send({
    type: 'subscribe',
    actor: { ...alice, human: 'a'.repeat(5000) },
    clientId: 'client-long-1',
    after: 0,
  })
  assert.match((await socket.next('error')).error.message, /^actor: at most 1000 characters/)
  for (let index = 0; index < 6; index++)
    socket.send({ type: 'push', requestId: `burst-${index}`, records: [eventDraft(`burst-${index}`)] })
  const limited = await socket.next('error')
  assert.equal(limited.error.code, 'RATE_LIMITED')
  assert.match(limited.requestId ?? '', /^burst-/)
  const pushed = await socket.next('pushed')
  assert.equal(pushed.results[0]?.status, 'created')
  await socket.close()
})

test('a malformed limit in the Worker config fails requests loudly instead of running unlimited', async () => {
  await using broken = await startTestServer({ PUSHES_PER_SECOND: 'fast' })
  const response = await fetch(`${broken.url}/v1/health`)
  assert.equal(response.status, 500)
  assert.equal(errorOf(await response.json()).code, 'INTERNAL')
})
