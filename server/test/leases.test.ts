import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Actor } from '../../src/identity/protocol/actor.ts'
import type { ClaimResult } from '../../src/leases/protocol/lease.ts'
import type { LeasesResponse, ReleaseResult, ServerClaimRequest } from '../../src/sync/protocol/lease.ts'
import { expectOk, type SyncClient } from './helpers/sync-client.ts'
import { alice, bob } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer()
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

function claimBody(
  actor: Actor,
  patterns: string[],
  extra: Partial<ServerClaimRequest> = {},
): ServerClaimRequest {
  return {
    actor,
    patterns,
    reason: `work of ${actor.human}`,
    kind: 'claim',
    ttlMs: 3_600_000,
    autoLease: 'refuse',
    ...extra,
  }
}

async function claim(client: SyncClient, body: ServerClaimRequest): Promise<ClaimResult> {
  return expectOk<ClaimResult>(await client.request('claim', { body }))
}

async function release(client: SyncClient, body: unknown): Promise<ReleaseResult> {
  return expectOk<ReleaseResult>(await client.request('release', { body }))
}

test('two clients claiming one pattern at the same instant: one is granted, the other told who holds it', async () => {
  const client = await server.newProject()
  const [first, second] = await Promise.all([
    claim(client, claimBody(alice, ['src/server.ts'])),
    claim(client, claimBody(bob, ['src/server.ts'])),
  ])
  const results = [first, second]
  const granted = results.filter((result) => result.granted)
  assert.equal(granted.length, 1)
  const refused = results.find((result) => !result.granted)
  assert.ok(refused && !refused.granted)
  const winner = granted[0]?.granted ? granted[0].leases[0]?.holder : undefined
  assert.deepEqual(refused.conflicts[0]?.lease.holder, winner)
  assert.equal(refused.conflicts[0]?.lease.reason, `work of ${winner?.human}`)
})

test('1,000 concurrent claims on overlapping patterns through the server have exactly one winner', async () => {
  const client = await server.newProject()
  const patterns = ['src/**', 'src/a.ts', 'src/*.ts', '**/a.ts']
  const results = await Promise.all(
    Array.from({ length: 1000 }, (_, index) =>
      claim(
        client,
        claimBody({ human: `dev${index}@example.dev`, vendor: null, sessionId: null }, [
          patterns[index % 4] ?? 'src/**',
        ]),
      ),
    ),
  )
  const winners = results.filter((result) => result.granted)
  assert.equal(winners.length, 1)
  const holder = winners[0]?.granted ? winners[0].leases[0]?.holder.human : undefined
  for (const result of results)
    if (!result.granted)
      assert.equal(result.conflicts[0]?.lease.holder.human, holder, 'every loser names the winner')
  const { leases, fencingToken } = expectOk<LeasesResponse>(await client.request('leases'))
  assert.equal(leases.length, 1)
  assert.equal(fencingToken, 1)
})

test('fencing tokens strictly increase per project; a renewal keeps its token', async () => {
  const client = await server.newProject()
  const tokens: number[] = []
  for (const [index, pattern] of ['a.ts', 'b.ts', 'c/**'].entries()) {
    const result = await claim(client, claimBody(index % 2 === 0 ? alice : bob, [pattern]))
    assert.ok(result.granted)
    tokens.push(result.leases[0]?.token ?? 0)
  }
  assert.deepEqual(tokens, [1, 2, 3])
  const renewed = await claim(client, claimBody(alice, ['A.ts'], { reason: 'still on it' }))
  assert.ok(renewed.granted)
  assert.deepEqual([renewed.leases[0]?.token, renewed.leases[0]?.renewed], [1, true])
  await release(client, { actor: bob, patterns: ['b.ts'], forceReason: null })
  const next = await claim(client, claimBody(bob, ['b.ts']))
  assert.ok(next.granted)
  assert.equal(next.leases[0]?.token, 4, 'a token is never reused, even after a release')
  const other = await server.newProject()
  const fresh = await claim(other, claimBody(alice, ['a.ts']))
  assert.ok(fresh.granted)
  assert.equal(fresh.leases[0]?.token, 1, 'each project counts its own tokens')
})

test('lease changes are records: pulled in order and pushed to subscribed sockets', async () => {
  const client = await server.newProject()
  const socket = await client.subscribe(bob, 0)
  await claim(client, claimBody(alice, ['docs/**', 'README.md']))
  await release(client, { actor: alice, patterns: ['README.md'], forceReason: null })
  const streamed = await socket.recordsThrough(3)
  const { records } = await client.pullAll()
  assert.deepEqual(streamed, records)
  assert.deepEqual(
    records.map((record) => [
      record.gseq,
      record.type,
      record.type === 'lease.granted' || record.type === 'lease.released'
        ? record.payload.lease.pattern
        : null,
    ]),
    [
      [1, 'lease.granted', 'docs/**'],
      [2, 'lease.granted', 'README.md'],
      [3, 'lease.released', 'README.md'],
    ],
  )
  assert.deepEqual(records[0]?.actor, alice)
  await socket.close()
})

test('only the holder releases, unless forced with a reason, which the log keeps', async () => {
  const client = await server.newProject()
  await claim(client, claimBody(alice, ['src/a.ts']))
  const refused = await release(client, { actor: bob, patterns: ['src/a.ts'], forceReason: null })
  assert.equal(refused.ok, false)
  assert.ok(!refused.ok && refused.problem === 'held-by-other' && refused.lease?.holder.human === alice.human)
  const missing = await release(client, { actor: bob, patterns: ['nothing/here.ts'], forceReason: null })
  assert.ok(!missing.ok && missing.problem === 'not-found')
  const forced = await release(client, {
    actor: bob,
    patterns: ['src/a.ts'],
    forceReason: 'alice is on leave',
  })
  assert.ok(forced.ok && forced.forced.length === 1)
  const { records } = await client.pullAll()
  const last = records.at(-1)
  assert.ok(last?.type === 'lease.released')
  assert.deepEqual(last.actor, bob)
  assert.equal(last.payload.forceReason, 'alice is on leave')
  assert.equal(last.payload.lease.holder.human, alice.human)
  assert.equal(expectOk<LeasesResponse>(await client.request('leases')).leases.length, 0)
})

test('a claim the server cannot take is refused with the reason', async () => {
  const client = await server.newProject()
  for (const [body, message] of [
    [claimBody(alice, ['/etc/passwd']), /absolute/],
    [claimBody(alice, ['../outside.ts']), /climbs out/],
    [claimBody(alice, ['a.ts'], { ttlMs: 5 }), /ttlMs/],
    [{ ...claimBody(alice, ['a.ts']), reason: '' }, /^reason: /],
  ] as const) {
    const reply = await client.request('claim', { body })
    assert.equal(reply.status, 400)
    assert.match((reply.body as { error: { message: string } }).error.message, message)
  }
})
