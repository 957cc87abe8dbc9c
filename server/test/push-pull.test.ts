import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { SyncedRecord } from '../../src/sync/protocol/record.ts'
import { eventDraft, eventDrafts } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

let server: TestServer
before(async () => {
  server = await startTestServer()
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

function assertGapless(records: readonly SyncedRecord[], from = 1): void {
  assert.deepEqual(
    records.map((record) => record.gseq),
    records.map((_, index) => from + index),
  )
  assert.equal(new Set(records.map((record) => record.id)).size, records.length, 'a record id appears twice')
}

test('a replayed push creates nothing and returns the original gseqs', async () => {
  const client = await server.newProject()
  const drafts = eventDrafts('replay', 3)
  const first = await client.push(drafts)
  assert.deepEqual(
    first.results.map(({ gseq, status }) => [gseq, status]),
    [
      [1, 'created'],
      [2, 'created'],
      [3, 'created'],
    ],
  )
  const again = await client.push(drafts)
  assert.deepEqual(
    again.results.map(({ gseq, status }) => [gseq, status]),
    [
      [1, 'duplicate'],
      [2, 'duplicate'],
      [3, 'duplicate'],
    ],
  )
  assert.equal(again.headGseq, 3)
  assertGapless((await client.pullAll()).records)
})

test('a batch that overlaps an earlier one appends only the new records', async () => {
  const client = await server.newProject()
  await client.push([eventDraft('a'), eventDraft('b'), eventDraft('c')])
  const overlap = await client.push([eventDraft('b'), eventDraft('c'), eventDraft('d')])
  assert.deepEqual(
    overlap.results.map(({ id, gseq, status }) => [id, gseq, status]),
    [
      ['b', 2, 'duplicate'],
      ['c', 3, 'duplicate'],
      ['d', 4, 'created'],
    ],
  )
})

test('the same id twice in one push is appended once', async () => {
  const client = await server.newProject()
  const reply = await client.push([eventDraft('twin'), eventDraft('twin'), eventDraft('other')])
  assert.deepEqual(
    reply.results.map(({ gseq, status }) => [gseq, status]),
    [
      [1, 'created'],
      [1, 'duplicate'],
      [2, 'created'],
    ],
  )
})

test('out-of-order pushes from two clients, with replays, give one gapless order', async () => {
  const client = await server.newProject()
  const batches = Array.from({ length: 6 }, (_, batch) => eventDrafts(`batch${batch}`, 20))
  // Client one sends its outbox backwards (a retry after a partial failure), client two forwards,
  // and each replays one batch the other already sent.
  const one = [batches[5], batches[3], batches[1], batches[2]]
  const two = [batches[0], batches[2], batches[4], batches[5]]
  await Promise.all([
    (async () => {
      for (const batch of one) await client.push(batch ?? [], 'client-one-1')
    })(),
    (async () => {
      for (const batch of two) await client.push(batch ?? [], 'client-two-1')
    })(),
  ])
  const { records } = await client.pullAll()
  assert.equal(records.length, 120)
  assertGapless(records)
  assert.deepEqual(
    new Set(records.map((record) => record.id)),
    new Set(batches.flat().map((draft) => draft.id)),
  )
})

test('concurrent pushers get gapless, unique gseqs and every push sees its own results', async () => {
  const client = await server.newProject()
  const pushers = Array.from({ length: 8 }, (_, pusher) =>
    Array.from({ length: 5 }, (_, push) => eventDrafts(`p${pusher}-${push}`, 25)),
  )
  const replies = await Promise.all(
    pushers.flatMap((pushes, pusher) => pushes.map((drafts) => client.push(drafts, `pusher-${pusher}-abc`))),
  )
  const gseqs = replies.flatMap((reply) => reply.results.map((result) => result.gseq))
  assert.deepEqual(
    [...gseqs].sort((a, b) => a - b),
    Array.from({ length: 1000 }, (_, index) => index + 1),
  )
  for (const reply of replies) {
    const mine = reply.results.map((result) => result.gseq)
    assert.deepEqual(
      mine,
      mine.map((_, index) => (mine[0] ?? 0) + index),
      'one push gets consecutive gseqs',
    )
  }
  assertGapless((await client.pullAll()).records)
})

test('a client offline for thousands of records catches up in pages, in order', async () => {
  const client = await server.newProject()
  for (let batch = 0; batch < 10; batch++)
    await client.push(eventDrafts(`offline${batch}`, 500), `writer-${batch}-xx`)
  const { records, pages } = await client.pullAll(0, 1000)
  assert.equal(records.length, 5000)
  assert.equal(pages, 5)
  assertGapless(records)
  assert.equal(records[0]?.id, 'offline0-0')
  assert.equal(records.at(-1)?.id, 'offline9-499')
  const tail = await client.pullAll(4321, 250)
  assert.equal(tail.records.length, 679)
  assertGapless(tail.records, 4322)
  const first = await client.pull(0, 100_000)
  assert.equal(first.records.length, 1000, 'a limit above the maximum is lowered to it')
  assert.equal(first.hasMore, true)
  assert.equal(first.headGseq, 5000)
  const end = await client.pull(5000)
  assert.deepEqual(end, { records: [], headGseq: 5000, hasMore: false })
})

test('a pull cursor beyond the head is refused with the head, so the client can tell', async () => {
  const client = await server.newProject()
  await client.push(eventDrafts('head', 2))
  const reply = await client.request('pull', { query: '?after=99' })
  assert.equal(reply.status, 409)
  assert.deepEqual((reply.body as { error: { code: string; headGseq: number } }).error.code, 'CURSOR_AHEAD')
  assert.equal((reply.body as { error: { headGseq: number } }).error.headGseq, 2)
  for (const query of ['?after=-1', '?after=x', '?limit=0', '?after=1.5']) {
    const bad = await client.request('pull', { query })
    assert.equal(bad.status, 400, query)
    assert.equal((bad.body as { error: { code: string } }).error.code, 'INVALID_REQUEST')
  }
})

test('a push with one bad record is refused whole, naming the record, and appends nothing', async () => {
  const client = await server.newProject()
  const secret = eventDraft('tool-output')
  const notShareable = { ...secret, payload: { ...secret.payload, shareable: false } }
  const refused = await client.request('push', {
    body: { clientId: 'client-bad-1', records: [eventDraft('fine'), notShareable] },
  })
  assert.equal(refused.status, 400)
  const error = (refused.body as { error: { code: string; message: string } }).error
  assert.equal(error.code, 'INVALID_REQUEST')
  assert.match(error.message, /^records\.1\.payload\.shareable: .*not shareable/)
  const mismatched = await client.request('push', {
    body: { clientId: 'client-bad-1', records: [{ ...eventDraft('one'), id: 'another' }] },
  })
  assert.equal(mismatched.status, 400)
  assert.match((mismatched.body as { error: { message: string } }).error.message, /event id/)
  const reserved = await client.request('push', {
    body: { clientId: 'client-bad-1', records: [eventDraft('srv_forged')] },
  })
  assert.equal(reserved.status, 400)
  const response = await fetch(client.url('push'), {
    method: 'POST',
    headers: { authorization: `Bearer ${client.key}` },
    body: '{"clientId": "client-bad-1", "records": [',
  })
  assert.equal(response.status, 400)
  assert.match(((await response.json()) as { error: { message: string } }).error.message, /not valid JSON/)
  assert.deepEqual((await client.pull(0)).records, [])
})
