import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { SyncHttpClient } from './http-client.ts'
import { isUnreachable } from './unreachable.ts'

/**
 * A real HTTP server on 127.0.0.1 that closes the connection of each request it is told to drop
 * without a byte of answer, as a server whose keep-alive ran out does to a reused connection.
 */
async function dropping(answers: Record<string, unknown>) {
  const seen: string[] = []
  let drops = 0
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    seen.push(`${request.method} ${path}`)
    request.resume()
    request.on('end', () => {
      if (drops > 0) {
        drops -= 1
        request.socket.destroy()
        return
      }
      const suffix = Object.keys(answers).find((key) => path.endsWith(key))
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(suffix === undefined ? {} : answers[suffix]))
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  const client = new SyncHttpClient({ url: `http://127.0.0.1:${port}`, projectId: 'prj_x', key: 'k' })
  return {
    client,
    seen,
    drop: (count: number) => {
      drops = count
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

test('a repeatable request whose connection closes unanswered goes once more; others are unreachable at once', async () => {
  const holder = { lane: 'a', owner: 'o', machine: 'm', task: null, token: 3, since: 1, heartbeatAt: 1 }
  const world = await dropping({
    '/lock/release': { released: true },
    '/lock/heartbeat': { alive: true },
    '/lock/acquire': { granted: true, holder },
    '/lock': { holder: null, now: 1, events: [] },
    '/records': { results: [], headGseq: 0 },
  })
  try {
    world.drop(1)
    assert.deepEqual(await world.client.lockRelease({ token: 3 }), { ok: true, value: { released: true } })
    world.drop(1)
    assert.deepEqual(await world.client.lockHeartbeat({ token: 3, task: null }), {
      ok: true,
      value: { alive: true },
    })
    world.drop(1)
    assert.equal((await world.client.lock()).ok, true, 'a GET goes again too')
    assert.deepEqual(world.seen.splice(0).length, 6, 'each of the three asked twice')

    // A push can: the server keeps the first copy of each record id (the answer says `duplicate`).
    world.drop(1)
    const pushed = await world.client.push({ clientId: 'cli_repeat01', records: [] })
    assert.equal(pushed.ok, true, 'the push went again on a new connection')
    assert.deepEqual(world.seen.splice(0), [
      'POST /v1/projects/prj_x/records',
      'POST /v1/projects/prj_x/records',
    ])

    // A grant cannot be asked twice: the first may have been granted before its connection closed.
    world.drop(1)
    await assert.rejects(
      world.client.lockAcquire({ lane: 'a', owner: 'o', machine: 'm', task: null }),
      (error) => isUnreachable(error) && /UND_ERR_SOCKET|ECONNRESET/.test((error as Error).message),
    )
    assert.deepEqual(world.seen.splice(0), ['POST /v1/projects/prj_x/lock/acquire'])

    // Twice closed: the repeat is the only one, then unreachable.
    world.drop(2)
    await assert.rejects(world.client.lockRelease({ token: 3 }), isUnreachable)
    assert.equal(world.seen.splice(0).length, 2)
  } finally {
    await world.close()
  }
})
