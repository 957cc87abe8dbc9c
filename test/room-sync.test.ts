import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { attachBoth, type Machine, serverRecords, syncWorld } from './helpers/sync-world.ts'
import { startProxy } from './helpers/tcp-proxy.ts'
import { eventually } from './helpers/up-process.ts'

/**
 * The room across machines, every part real: two machines (own SANGAM_HOME and clone) and one
 * `sangam serve` in workerd, each machine behind its own proxy so that the server can be gone
 * for one or both. Messages posted while the server is unreachable are sent when it is back;
 * every message reaches both machines exactly once, in one order everywhere.
 */
after(killAllServes)

interface Message {
  readonly id: string
  readonly text: string
  readonly sender: string
}

async function read(machine: Machine): Promise<Message[]> {
  return (await machine.cliJson<{ messages: Message[] }>(['read', '--limit', '500'])).messages
}

async function post(machine: Machine, text: string): Promise<string> {
  return (await machine.cliJson<{ message: { id: string } }>(['post', text])).message.id
}

test('two machines post while the server is unreachable; once back, every message is on both, once, in one order', async () => {
  await using world = await syncWorld()
  await using proxyA = await startProxy(world.server.url)
  await using proxyB = await startProxy(world.server.url)
  const { a, b } = world
  await attachBoth(world, { urlA: proxyA.url, urlB: proxyB.url })
  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])

  const online = await post(a, 'before the outage: who owns the projection?')
  await eventually(
    async () => (await read(b)).some((message) => message.id === online),
    20_000,
    'the first post on bob',
  )

  await Promise.all([proxyA.offline(true), proxyB.offline(true)])
  const texts: string[] = []
  for (let i = 0; i < 4; i++) {
    for (const [machine, name] of [
      [a, 'alice'],
      [b, 'bob'],
    ] as const) {
      const text = `offline ${name} ${i}`
      texts.push(text)
      await post(machine, text)
    }
  }
  const thread = await a.cliJson<{ thread: { id: string } }>(['thread-open', '--title', 'Projection owner'])
  await Promise.all([proxyA.offline(false), proxyB.offline(false)])

  const all = ['before the outage: who owns the projection?', ...texts]
  await eventually(
    async () => {
      const [onA, onB] = await Promise.all([read(a), read(b)])
      return (
        onA.length === all.length &&
        JSON.stringify(onA.map((message) => message.id)) === JSON.stringify(onB.map((message) => message.id))
      )
    },
    60_000,
    'the same messages in the same order on both machines',
  )
  const onA = await read(a)
  assert.deepEqual([...onA.map((message) => message.text)].sort(), [...all].sort(), 'each message once')
  const records = await serverRecords(a)
  const messages = records.filter((record) => record.type === 'room.message')
  assert.equal(messages.length, all.length, 'the server holds each message once')
  assert.deepEqual(
    onA.map((message) => message.id),
    [...messages].sort((x, y) => x.gseq - y.gseq).map((record) => record.id),
    "the machines' order is the server's order",
  )
  await eventually(
    async () =>
      (await b.cliJson<{ threads: { id: string }[] }>(['threads'])).threads.some(
        (t) => t.id === thread.thread.id,
      ),
    20_000,
    "alice's offline thread on bob",
  )
  await b.cliJson(['thread-close', thread.thread.id])
  await eventually(
    async () =>
      (await a.cliJson<{ threads: { id: string }[] }>(['threads'])).threads.every(
        (t) => t.id !== thread.thread.id,
      ),
    20_000,
    "bob's close on alice",
  )
})
