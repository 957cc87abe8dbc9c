import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import type { ClaimResult } from '../../src/leases/protocol/lease.ts'
import type { LeasesResponse } from '../../src/sync/protocol/lease.ts'
import type { SyncedRecord } from '../../src/sync/protocol/record.ts'
import { killAllServes, type ServeProcess, startServe } from './helpers/serve-process.ts'
import { expectOk, SyncClient } from './helpers/sync-client.ts'
import { alice, bob, eventDrafts, newProjectId, newProjectKey } from './helpers/sync-fixture.ts'

const dirs: string[] = []
function dataDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sangam-serve-')))
  dirs.push(dir)
  return dir
}
after(() => {
  killAllServes()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function newProject(serve: ServeProcess): Promise<SyncClient> {
  const client = new SyncClient(serve.url, newProjectId(), newProjectKey())
  assert.equal((await client.create()).status, 201)
  return client
}

/** The same project, reached at the restarted server's URL. */
const at = (serve: ServeProcess, client: SyncClient): SyncClient =>
  new SyncClient(serve.url, client.projectId, client.key)

function assertExactlyOnce(records: readonly SyncedRecord[], ids: readonly string[]): void {
  assert.deepEqual(
    records.map((record) => record.gseq),
    records.map((_, index) => index + 1),
    'gseqs are gapless',
  )
  assert.deepEqual(
    [...records.map((record) => record.id)].sort(),
    [...ids].sort(),
    'every record exactly once',
  )
}

test('a restart on the same data dir keeps projects, key digests, records, gseqs, leases and tokens', async () => {
  const dir = dataDir()
  const first = await startServe(dir)
  const client = await newProject(first)
  await client.push(eventDrafts('kept', 30))
  const claimed = expectOk<ClaimResult>(
    await client.request('claim', {
      body: {
        actor: alice,
        patterns: ['src/**'],
        reason: 'refactor',
        kind: 'claim',
        ttlMs: 3_600_000,
        autoLease: 'refuse',
      },
    }),
  )
  assert.ok(claimed.granted && claimed.leases[0])
  const { renewed: _renewed, ...lease } = claimed.leases[0]
  assert.equal(await first.stop(), 0, first.stderr())

  const second = await startServe(dir)
  const again = at(second, client)
  const { records } = await again.pullAll()
  assert.equal(records.length, 31)
  assert.equal(
    (await new SyncClient(second.url, client.projectId, newProjectKey()).request('pull')).status,
    401,
  )
  const { leases, fencingToken } = expectOk<LeasesResponse>(await again.request('leases'))
  assert.deepEqual(leases, [lease])
  assert.equal(fencingToken, 1)
  const next = expectOk<ClaimResult>(
    await again.request('claim', {
      body: {
        actor: bob,
        patterns: ['docs/**'],
        reason: 'docs',
        kind: 'claim',
        ttlMs: 3_600_000,
        autoLease: 'refuse',
      },
    }),
  )
  assert.ok(next.granted && next.leases[0]?.token === 2, 'tokens continue after a restart')
  assert.equal((await again.push(eventDrafts('after', 1))).results[0]?.gseq, 33)
  assert.equal(await second.stop('SIGINT'), 0, second.stderr())
})

test('a crash mid-push loses nothing that was answered, and retries duplicate nothing', async () => {
  const dir = dataDir()
  let serve = await startServe(dir)
  const client = await newProject(serve)
  const batches = Array.from({ length: 4 }, (_, pusher) =>
    Array.from({ length: 30 }, (_, batch) => eventDrafts(`p${pusher}b${batch}`, 40)),
  )
  const answered = new Map<string, number>()
  let crashed = false
  const pushers = batches.map(async (mine, pusher) => {
    const pending = [...mine]
    while (pending.length > 0 && !crashed) {
      const batch = pending[0] ?? []
      try {
        const reply = await at(serve, client).push(batch, `crash-pusher-${pusher}`)
        for (const result of reply.results) answered.set(result.id, result.gseq)
        pending.shift()
      } catch {
        // The server is down; the batch stays pending, as in a real outbox.
      }
    }
    return pending
  })
  while (answered.size < 1000) await new Promise((resolve) => setTimeout(resolve, 5))
  crashed = true
  await serve.crash()
  const unanswered = (await Promise.all(pushers)).flat()
  assert.ok(unanswered.length > 0, 'the crash interrupted the pushers')

  serve = await startServe(dir)
  const survivor = at(serve, client)
  for (const batch of unanswered) await survivor.push(batch, 'crash-retry-1')
  // A replay of everything (an outbox that cannot tell what got through) changes nothing.
  for (const batch of batches.flat()) {
    const replay = await survivor.push(batch, 'crash-replay-1')
    for (const result of replay.results) {
      assert.equal(result.status, 'duplicate')
      const before = answered.get(result.id)
      if (before !== undefined) assert.equal(result.gseq, before, 'an answered gseq never changes')
    }
  }
  const { records } = await survivor.pullAll()
  assertExactlyOnce(
    records,
    batches.flat(2).map((draft) => draft.id),
  )
  assert.equal(await serve.stop(), 0, serve.stderr())
})

test('a crash mid-stream: the subscriber resumes from its last gseq on the restarted server', async () => {
  const dir = dataDir()
  let serve = await startServe(dir)
  const client = await newProject(serve)
  const socket = await client.subscribe(bob, 0)
  const received: SyncedRecord[] = []
  const drafts = Array.from({ length: 20 }, (_, batch) => eventDrafts(`stream${batch}`, 50))
  for (const batch of drafts.slice(0, 10)) await client.push(batch)
  received.push(...(await socket.recordsThrough(500)))
  // A push in flight when the server dies: answered or not, the retries below settle it.
  const midway = client.push(drafts[10] ?? []).catch(() => undefined)
  await serve.crash()
  await midway
  assert.ok(socket.closed || (await waitClosed(socket)), 'the socket dropped with the server')

  serve = await startServe(dir)
  const again = at(serve, client)
  const resumed = await again.subscribe(bob, received.at(-1)?.gseq ?? 0)
  for (const batch of drafts.slice(10)) await again.push(batch)
  received.push(...(await resumed.recordsThrough(1000)))
  assertExactlyOnce(
    received,
    drafts.flat().map((draft) => draft.id),
  )
  assert.deepEqual(received, (await again.pullAll()).records)
  await resumed.close()
  assert.equal(await serve.stop(), 0, serve.stderr())
})

async function waitClosed(socket: { closed: boolean }): Promise<boolean> {
  for (let waited = 0; waited < 5000 && !socket.closed; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20))
  return socket.closed
}

async function healthAnswers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/v1/health`)).status === 200
  } catch {
    return false
  }
}

/** Waits (bounded) until the server at `url` stops answering. */
async function goneWithin(url: string, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (!(await healthAnswers(url))) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

/** Running, not merely present: an orphan killed in a container without an init stays a zombie. */
function isRunning(pid: number): boolean {
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim()
    return state !== '' && !state.startsWith('Z')
  } catch {
    return false
  }
}

function readLockFile(dir: string): { workerdPid: number | null; watchdogPid?: number | null } {
  return JSON.parse(readFileSync(join(dir, 'serve.lock'), 'utf8'))
}

test('kill -9 of serve alone takes its workerd down too; the next serve comes back on the same URL', async () => {
  const dir = dataDir()
  const first = await startServe(dir)
  const client = await newProject(first)
  await client.push(eventDrafts('orphaned', 5))
  const { workerdPid } = readLockFile(dir)
  assert.ok(workerdPid, 'the lock names the workerd child')
  await first.killParentOnly()
  assert.ok(await goneWithin(first.url, 5000), 'workerd died with its serve: the port is free')
  assert.equal(isRunning(workerdPid), false)
  const second = await startServe(dir)
  assert.equal(second.url, first.url, '--port 0 reuses the port this data dir was served on')
  assert.equal((await at(second, client).pullAll()).records.length, 5)
  assert.equal(await second.stop(), 0, second.stderr())
})

test('an orphaned workerd that outlived its watchdog is stopped by the next serve on the dir', async () => {
  const dir = dataDir()
  const first = await startServe(dir)
  const client = await newProject(first)
  await client.push(eventDrafts('reclaimed', 3))
  const { workerdPid, watchdogPid } = readLockFile(dir)
  assert.ok(workerdPid && watchdogPid, 'the lock names workerd and its watchdog')
  // Both started by this test's serve: the watchdog first, so nothing stops workerd.
  process.kill(watchdogPid, 'SIGKILL')
  await first.killParentOnly()
  assert.equal(await healthAnswers(first.url), true, 'workerd outlived both')
  const second = await startServe(dir)
  assert.equal(isRunning(workerdPid), false, 'the orphan is gone')
  assert.equal(second.url, first.url, 'and its port is served again')
  assert.equal((await at(second, client).pullAll()).records.length, 3)
  assert.equal(await second.stop(), 0, second.stderr())
})

test('an orderly stop and start keeps the URL of a --port 0 server', async () => {
  const dir = dataDir()
  const first = await startServe(dir)
  assert.equal(await first.stop(), 0, first.stderr())
  const second = await startServe(dir)
  assert.equal(second.url, first.url)
  assert.equal(await second.stop(), 0, second.stderr())
})

test('a second serve on a data dir in use is refused, naming the first', async () => {
  const dir = dataDir()
  const first = await startServe(dir)
  await assert.rejects(
    startServe(dir),
    /exited 9 .*another sangam serve \(pid \d+, http:\/\/127\.0\.0\.1:\d+\)/s,
  )
  assert.equal(await first.stop(), 0, first.stderr())
})
