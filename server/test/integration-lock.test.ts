import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type {
  LockAcquireAnswer,
  LockAcquireRequest,
  LockMainAnswer,
  LockState,
  LockTakeoverAnswer,
} from '../../src/lanes/protocol/integration-lock.ts'
import { expectOk, SyncClient } from './helpers/sync-client.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer()
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

function lane(name: string, machine = `machine-${name}`): LockAcquireRequest {
  return { lane: name, owner: `${name}@example.dev`, machine, task: null }
}

async function acquire(client: SyncClient, body: LockAcquireRequest): Promise<LockAcquireAnswer> {
  return expectOk<LockAcquireAnswer>(await client.request('lockAcquire', { body }))
}

test('fifty lanes on fifty machines racing for the lock: exactly one is granted, the rest told who holds it', async () => {
  const client = await server.newProject()
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, index) => acquire(client, lane(`lane-${index}`))),
  )
  const granted = answers.filter((answer) => answer.granted)
  assert.equal(granted.length, 1)
  const holder = granted[0]?.holder
  for (const answer of answers) assert.deepEqual(answer.holder, holder)
  const state = expectOk<LockState>(await client.request('lock'))
  assert.deepEqual(state.holder, holder)
  assert.deepEqual(
    state.events.map((event) => [event.kind, event.holder.lane]),
    [['acquired', holder?.lane]],
  )
})

test('heartbeat and release need the tenure’s token; every grant takes a larger token', async () => {
  const client = await server.newProject()
  const first = await acquire(client, lane('a'))
  assert.ok(first.granted)
  assert.equal(first.holder.token, 1)
  const wrong = first.holder.token + 1
  assert.deepEqual(expectOk(await client.request('lockHeartbeat', { body: { token: wrong, task: null } })), {
    alive: false,
  })
  assert.deepEqual(expectOk(await client.request('lockRelease', { body: { token: wrong } })), {
    released: false,
  })
  assert.deepEqual(
    expectOk(await client.request('lockHeartbeat', { body: { token: first.holder.token, task: 'task-1' } })),
    { alive: true },
  )
  const during = expectOk<LockState>(await client.request('lock'))
  assert.equal(during.holder?.task, 'task-1')
  assert.equal((await acquire(client, lane('b'))).granted, false)
  assert.deepEqual(expectOk(await client.request('lockRelease', { body: { token: first.holder.token } })), {
    released: true,
  })
  // A release of an ended tenure does nothing, and so does a late heartbeat.
  assert.deepEqual(expectOk(await client.request('lockRelease', { body: { token: first.holder.token } })), {
    released: false,
  })
  const second = await acquire(client, lane('b'))
  assert.ok(second.granted)
  assert.ok(second.holder.token > first.holder.token)
  assert.deepEqual(
    expectOk(await client.request('lockHeartbeat', { body: { token: first.holder.token, task: null } })),
    { alive: false },
  )
  const state = expectOk<LockState>(await client.request('lock'))
  assert.deepEqual(
    state.events.map((event) => [event.kind, event.holder.lane]),
    [
      ['acquired', 'a'],
      ['released', 'a'],
      ['acquired', 'b'],
    ],
  )
})

test('a takeover of a live holder is refused; of a free lock it is a grant; racing takeovers have one winner', async () => {
  const client = await server.newProject()
  const held = await acquire(client, lane('a'))
  const refused = expectOk<LockTakeoverAnswer>(
    await client.request('lockTakeover', {
      body: {
        lane: 'b',
        owner: 'b@example.dev',
        machine: 'machine-b',
        reason: 'a looks stuck',
        staleAfterMs: 3_600_000,
      },
    }),
  )
  assert.deepEqual(refused, { taken: false, holder: held.holder })
  expectOk(await client.request('lockRelease', { body: { token: held.holder.token } }))
  const takers = await Promise.all(
    ['b', 'c', 'd'].map(async (name) =>
      expectOk<LockTakeoverAnswer>(
        await client.request('lockTakeover', {
          body: {
            lane: name,
            owner: `${name}@example.dev`,
            machine: name,
            reason: 'free',
            staleAfterMs: 3_600_000,
          },
        }),
      ),
    ),
  )
  const taken = takers.filter((answer) => answer.taken)
  assert.equal(taken.length, 1)
  assert.equal(taken[0]?.taken && taken[0].previous, null)
})

test('malformed lock requests are refused with 400 and change nothing', async () => {
  const client = await server.newProject()
  for (const [action, body] of [
    ['lockAcquire', { lane: '', owner: 'a', machine: 'm', task: null }],
    ['lockAcquire', { lane: 'a', owner: 'a', task: null }],
    ['lockHeartbeat', { token: 0, task: null }],
    ['lockRelease', { token: 'one' }],
    ['lockTakeover', { lane: 'a', owner: 'a', machine: 'm', reason: '  ', staleAfterMs: 60_000 }],
    ['lockTakeover', { lane: 'a', owner: 'a', machine: 'm', reason: 'why', staleAfterMs: 5 }],
  ] as const) {
    const reply = await client.request(action, { body })
    assert.equal(reply.status, 400, `${action} ${JSON.stringify(body)}`)
  }
  const state = expectOk<LockState>(await client.request('lock'))
  assert.deepEqual([state.holder, state.events], [null, []])
  const stranger = new SyncClient(client.baseUrl, client.projectId, 'not-the-key')
  assert.equal((await stranger.request('lock')).status, 401)
})

test("the team's main: only the holding tenure records a publish, confirmed after; an acceptance is a compare-and-swap", async () => {
  const client = await server.newProject()
  const [a, b, c] = ['a', 'b', 'c'].map((char) => char.repeat(40)) as [string, string, string]
  const main = async (body: unknown) => expectOk<LockMainAnswer>(await client.request('lockMain', { body }))
  assert.equal(expectOk<LockState>(await client.request('lock')).main, null)
  const granted = await acquire(client, lane('alpha'))
  assert.ok(granted.granted)
  const token = granted.holder.token
  // Not the holder's token: nothing recorded.
  assert.equal((await main({ kind: 'publishing', token: token + 1, from: null, to: a })).recorded, false)
  const publishing = await main({ kind: 'publishing', token, from: null, to: a })
  assert.equal(publishing.recorded, true)
  assert.deepEqual(
    [publishing.main?.commit, publishing.main?.from, publishing.main?.lane, publishing.main?.machine],
    [a, null, 'alpha', 'machine-alpha'],
  )
  await main({ kind: 'publishing', token, from: a, to: b })
  assert.equal(expectOk<LockState>(await client.request('lock')).main?.from, a, 'while it pushes, both')
  assert.equal((await main({ kind: 'published', token, commit: b })).main?.from, null, 'confirmed')
  expectOk(await client.request('lockRelease', { body: { token } }))
  // A person accepts c, from the record they saw (b); a second acceptance from b finds it changed.
  const accept = { kind: 'accept', commit: c, expected: b, lane: 'beta', owner: 'bob@x.dev', machine: 'm2' }
  const accepted = await main(accept)
  assert.deepEqual([accepted.recorded, accepted.main?.how, accepted.main?.commit], [true, 'accepted', c])
  assert.equal((await main({ ...accept, commit: a })).recorded, false)
  assert.equal(expectOk<LockState>(await client.request('lock')).main?.commit, c)
  // A released tenure records nothing more.
  assert.equal((await main({ kind: 'publishing', token, from: c, to: a })).recorded, false)
})
