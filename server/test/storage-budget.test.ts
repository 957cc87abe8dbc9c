import assert from 'node:assert/strict'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { SyncError } from '../../src/sync/protocol/error.ts'
import type { ProjectInfo } from '../../src/sync/protocol/project.ts'
import { alice, eventDraft } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

/**
 * A project's storage has a budget (MAX_PROJECT_BYTES): a keyholder flooding pushes is refused
 * QUOTA_EXCEEDED, whole and before anything is written, and what the refusal says is what the
 * project uses and how to raise it.
 */
const budget = 512 * 1024

/** Bytes of every file the server keeps (databases, their WAL and shared memory). */
function diskBytes(server: TestServer): number {
  let total = 0
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else total += statSync(path).size
    }
  }
  walk(join(server.dataDir, 'durable-objects'))
  return total
}

/** Pushes 20 KB records until the server refuses one; the refusal and how many records got in. */
async function flood(team: Awaited<ReturnType<TestServer['newProject']>>, prefix: string) {
  const text = 'x'.repeat(20 * 1024)
  for (let index = 0; index < 1000; index++) {
    const records = [0, 1].map((part) => eventDraft(`${prefix}-${index}-${part}`, alice, text))
    const reply = await team.request('push', { body: { clientId: 'flooder-1', records } })
    if (reply.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, (reply.body as SyncError).error.retryAfterMs))
      continue
    }
    if (reply.status !== 200) return { reply, pushed: index }
  }
  assert.fail('the flood was never refused')
}

test('a flood of pushes stops at the project storage budget, refused whole with what is used and how to raise it', async () => {
  await using server = await startTestServer({ MAX_PROJECT_BYTES: String(budget) })
  const team = await server.newProject()
  const { reply, pushed } = await flood(team, 'flood')
  assert.ok(pushed > 5, `some pushes were taken first (${pushed})`)
  assert.equal(reply.status, 507)
  const { error } = reply.body as SyncError
  assert.equal(error.code, 'QUOTA_EXCEEDED')
  assert.equal(error.limit, budget)
  assert.ok((error.usedBytes ?? 0) <= budget, `used ${error.usedBytes} of ${budget}`)
  assert.match(error.message, /stores .* of its 512 KB budget/)
  assert.match(error.message, /MAX_PROJECT_BYTES/)

  const info = (await team.request('info')).body as ProjectInfo
  assert.deepEqual(info.storage?.limitBytes, budget)
  assert.ok((info.storage?.usedBytes ?? 0) <= budget)
  const head = info.headGseq
  assert.equal(head, pushed * 2, 'the refused push appended nothing')

  // Refused before anything is written: more refused pushes, over HTTP and on a socket, grow nothing.
  const disk = diskBytes(server)
  for (let index = 0; index < 10; index++)
    assert.equal((await flood(team, `again-${index}`)).reply.status, 507)
  const socket = await team.subscribe(alice, head)
  socket.send({
    type: 'push',
    requestId: 'over',
    records: [eventDraft('socket-over', alice, 'y'.repeat(20_000))],
  })
  const refused = await socket.next('error')
  assert.equal(refused.error.code, 'QUOTA_EXCEEDED')
  assert.equal(refused.requestId, 'over')
  await socket.close()
  assert.equal(((await team.request('info')).body as ProjectInfo).headGseq, head)
  assert.equal(diskBytes(server), disk, 'not a byte more on disk')

  // A claim still goes through (the reserve keeps the team coordinating while the budget is raised).
  const claim = await team.request('claim', {
    body: {
      actor: alice,
      patterns: ['src/**'],
      reason: 'r',
      kind: 'claim',
      ttlMs: 60_000,
      autoLease: 'refuse',
    },
  })
  assert.equal(claim.status, 200, JSON.stringify(claim.body))

  // Raised: the same pushes are taken.
  await server.restart({ MAX_PROJECT_BYTES: String(4 * budget) })
  const again = await team.push([eventDraft('after-raise', alice, 'z'.repeat(20_000))])
  assert.equal(again.results[0]?.status, 'created')
})
