import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Actor } from '../../src/identity/protocol/actor.ts'
import type { PresenceResponse } from '../../src/sync/protocol/presence.ts'
import { expectOk, httpJson, type SyncClient, SyncSocket } from './helpers/sync-client.ts'
import { eventDraft } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer({ MAX_SOCKETS_PER_PROJECT: '80', PUSHES_PER_SECOND: '1000' })
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

const actor = (index: number, padding = ''): Actor => ({
  human: `dev-${index}${padding}@example.dev`,
  vendor: 'claude',
  sessionId: `session-${index}`,
})

/** Opens `count` subscribed sockets, each its own actor, and counts what every one of them hears. */
async function crowd(client: SyncClient, count: number) {
  const heard = { presence: 0, bytes: 0 }
  const sockets = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const socket = await SyncSocket.open(client.url('socket').replace(/^http/, 'ws'), client.key)
      socket.ws.on('message', (data: Buffer) => {
        const text = data.toString('utf8')
        if (text.startsWith('{"type":"presence"')) {
          heard.presence += 1
          heard.bytes += text.length
        }
      })
      socket.send({ type: 'subscribe', actor: actor(index), clientId: `crowd-client-${index}`, after: 0 })
      await socket.next('welcome')
      return socket
    }),
  )
  return { heard, sockets }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits until `count()` reached `atLeast` and then did not move for two presence windows (1 s
 * each): a flush due at the end of one window may land late on a loaded machine, so a fixed
 * one-window wait races it. Gives up after `atMostMs`, leaving the assertions to say what was seen.
 */
async function settle(count: () => number, atLeast: number, atMostMs = 15_000) {
  const until = Date.now() + atMostMs
  let seen = -1
  while (Date.now() < until) {
    await sleep(count() >= atLeast ? 2000 : 100)
    if (count() >= atLeast && count() === seen) return
    seen = count()
  }
}

test('sockets coming online together cost a linear number of presence messages, not a quadratic one', async () => {
  const client = await server.newProject()
  const count = 40
  const { heard, sockets } = await crowd(client, count)
  await settle(() => heard.presence, 0)
  // Before coalescing: every arrival told every socket already there, 40·39/2 = 780 messages.
  assert.ok(heard.presence <= 3 * count, `${heard.presence} presence messages for ${count} sockets`)
  const last = sockets.at(-1)
  assert.ok(last)
  // Everyone ends up knowing everyone: the last presence any socket got lists all 40 online.
  const { presence } = expectOk<PresenceResponse>(await client.request('presence'))
  assert.equal(presence.filter((entry) => entry.online).length, count)
  // Leaving is coalesced too: 20 go, the rest hear about it a bounded number of times.
  const before = heard.presence
  await Promise.all(sockets.slice(0, 20).map((socket) => socket.close()))
  await settle(() => heard.presence - before, 20)
  const leaving = heard.presence - before
  assert.ok(leaving >= 20 && leaving <= 3 * 20, `${leaving} presence messages for 20 departures`)
  await Promise.all(sockets.slice(20).map((socket) => socket.close()))
})

test('a project takes at most MAX_SOCKETS_PER_PROJECT sockets; one more is refused clearly', async () => {
  const client = await server.newProject()
  const { sockets } = await crowd(client, 80)
  const url = client.url('socket').replace(/^http/, 'ws')
  await assert.rejects(SyncSocket.open(url, client.key), /refused with 503/)
  const refused = await httpJson(client.url('socket'), 'GET', {
    authorization: `Bearer ${client.key}`,
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  })
  assert.equal(refused.status, 503)
  const body = refused.body as { error: { code: string; message: string } }
  assert.equal(body.error.code, 'TOO_MANY_CONNECTIONS')
  assert.match(body.error.message, /80 open sockets/)
  await sockets[0]?.close()
  await new Promise((resolve) => setTimeout(resolve, 200))
  const again = await SyncSocket.open(url, client.key)
  await Promise.all([again, ...sockets.slice(1)].map((socket) => socket.close()))
})

test('the welcome stays far below the 1 MiB message limit however many actors were active', async () => {
  const client = await server.newProject()
  // 2,000 actors with long names, each active once: about 2.4 MB of presence in all.
  const padding = 'x'.repeat(1000)
  for (let batch = 0; batch < 8; batch++)
    await client.push(
      Array.from({ length: 250 }, (_, index) => {
        const who = actor(batch * 250 + index, padding)
        return eventDraft(`busy-${batch}-${index}`, who)
      }),
    )
  const socket = await SyncSocket.open(client.url('socket').replace(/^http/, 'ws'), client.key)
  let welcomeChars = 0
  socket.ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8')
    if (text.startsWith('{"type":"welcome"')) welcomeChars = Buffer.byteLength(text)
  })
  socket.send({ type: 'subscribe', actor: actor(9999), clientId: 'welcome-client-1', after: 2000 })
  const welcome = await socket.next('welcome')
  assert.ok(welcomeChars > 0 && welcomeChars < 512 * 1024, `welcome of ${welcomeChars} bytes`)
  assert.equal(welcome.presence[0]?.actor.sessionId, 'session-9999', 'the online actor comes first')
  assert.equal((welcome.presenceOmitted ?? 0) + welcome.presence.length, 2001)
  const http = expectOk<PresenceResponse>(await client.request('presence'))
  assert.equal(http.presence.length + (http.omitted ?? 0), 2001)
  assert.ok(JSON.stringify(http).length < 4 * 1024 * 1024)
  await socket.close()
})
