/**
 * The sync server in real workerd (the service `sangam serve` runs), over loopback HTTP with
 * keep-alive connections:
 *
 * - claim latency p50/p95: sequential uncontended claims (with no other lease, then with 200
 *   standing leases of others), and the same 50 actors racing for a new pattern in each of 20
 *   rounds (exactly one may win), beside a no-op request to the Worker (`GET /v1/health`, no
 *   Durable Object) and an authenticated read of the project object in the same run;
 * - the records per second one project object sustains: several clients pushing batches at once,
 *   beside the no-op requests per second at the same concurrency.
 *
 * - presence fan-out: N sockets (each its own actor) subscribing at once to one project: the
 *   presence messages and bytes all of them hear, beside what the old rule (every arrival sent the
 *   whole list to every socket already there) costs for the same N, computed from the measured
 *   entry size: N(N-1)/2 messages.
 *
 * The push rate limits are raised for the run (PUSHES_PER_SECOND and PROJECT_PUSHES_PER_SECOND
 * 100000): the figure is the object's capacity, not the per-client limit.
 *
 *   npm run build && node --import tsx bench/server.ts [pushClients] [batchSize] [records] [sockets]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expectOk, httpJson, SyncClient, SyncSocket } from '../server/test/helpers/sync-client.ts'
import { eventDraft, newProjectId, newProjectKey } from '../server/test/helpers/sync-fixture.ts'
import type { ClaimResult } from '../src/leases/protocol/lease.ts'
import { startLocalServer } from '../src/serve/local-server.ts'
import { createLogger } from '../src/shared/logger.ts'
import type { PresenceResponse } from '../src/sync/protocol/presence.ts'
import { healthPath } from '../src/sync/protocol/routes.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const pushClients = Number(process.argv[2] ?? 8)
const batchSize = Number(process.argv[3] ?? 200)
const totalRecords = Number(process.argv[4] ?? 40_000)
const presenceSockets = Number(process.argv[5] ?? 200)
const samples = 400
const standing = 200

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sangam-bench-server-'))
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    log: createLogger(process.stderr, 'error'),
    vars: { PUSHES_PER_SECOND: '100000', PROJECT_PUSHES_PER_SECOND: '100000' },
  })
  try {
    const client = new SyncClient(server.url, newProjectId(), newProjectKey())
    expectOk(await client.create())
    await warmUp(client)
    const health = await timeEach(samples, () => fetchHealth(server.url))
    const info = await timeEach(samples, async () => expectOk(await client.request('info')))
    const claims = await claimThenRelease(client, samples, 'solo')
    for (let index = 0; index < standing; index++)
      await claimOnce(client, samples + index, `held/${index}/**`)
    const crowded = await claimThenRelease(client, samples, 'crowded')
    const race = await raceForOnePattern(client, 50, 20)
    print('no-op request to the Worker (GET /v1/health)', health)
    print('authenticated read of the project object', info)
    print('claim, uncontended, no other live lease', claims, health)
    print(`claim, uncontended, ${standing} live leases held by others`, crowded, health)
    print('claim, 50 claimers racing for one pattern', race.latencies, health)
    say(`  exactly one winner in ${race.singleWinnerRounds} of ${race.rounds} races`)

    const noopRate = await requestsPerSecond(pushClients, 4000, () => fetchHealth(server.url))
    const pushed = await pushThroughput(client, pushClients, batchSize, totalRecords)
    say(
      `pushes: ${pushClients} clients × batches of ${batchSize}: ${pushed.records} records in ${(pushed.ms / 1000).toFixed(2)} s` +
        ` = ${Math.round(pushed.recordsPerSecond)} records/s (${Math.round(pushed.pushesPerSecond)} pushes/s;` +
        ` push latency p50 ${pushed.p50.toFixed(1)} ms, p95 ${pushed.p95.toFixed(1)} ms)`,
    )
    say(
      `  no-op requests at the same concurrency: ${Math.round(noopRate)}/s;` +
        ` the object stores ${(pushed.recordsPerSecond / noopRate).toFixed(1)} records in the time the Worker answers one no-op`,
    )
    await presenceFanOut(server.url, presenceSockets)
    const head = (await client.pull(0, 1)).headGseq
    // Every grant and every release is a record too.
    const expected = pushed.records + race.granted + 4 * samples + standing
    if (head !== expected) throw new Error(`expected head ${expected}, got ${head}`)
  } finally {
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function warmUp(client: SyncClient): Promise<void> {
  for (let index = 0; index < 50; index++) {
    await client.request('info')
    await fetchHealth(client.baseUrl)
  }
}

async function fetchHealth(baseUrl: string): Promise<void> {
  expectOk(await httpJson(`${baseUrl}${healthPath}`, 'GET', {}))
}

async function claimOnce(client: SyncClient, index: number, pattern: string): Promise<ClaimResult> {
  return expectOk<ClaimResult>(
    await client.request('claim', {
      body: {
        actor: { human: `dev${index}@example.dev`, vendor: 'claude', sessionId: `s-${index}` },
        patterns: [pattern],
        reason: 'bench',
        kind: 'claim',
        ttlMs: 3_600_000,
        autoLease: 'refuse',
      },
    }),
  )
}

/** Claim latency of a fresh pattern, released right after so the live leases do not pile up. */
async function claimThenRelease(client: SyncClient, count: number, prefix: string): Promise<number[]> {
  const latencies: number[] = []
  for (let index = 0; index < count; index++) {
    const startedAt = performance.now()
    const result = await claimOnce(client, index, `${prefix}/${index}.ts`)
    latencies.push(performance.now() - startedAt)
    if (!result.granted) throw new Error(`an uncontended claim was refused: ${JSON.stringify(result)}`)
    const actor = result.leases[0]?.holder
    expectOk(
      await client.request('release', {
        body: { actor, patterns: [`${prefix}/${index}.ts`], forceReason: null },
      }),
    )
  }
  return latencies
}

async function timeEach(count: number, run: (index: number) => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = []
  for (let index = 0; index < count; index++) {
    const startedAt = performance.now()
    await run(index)
    latencies.push(performance.now() - startedAt)
  }
  return latencies
}

async function raceForOnePattern(client: SyncClient, claimers: number, rounds: number) {
  const latencies: number[] = []
  let singleWinnerRounds = 0
  let granted = 0
  for (let round = 0; round < rounds; round++) {
    const results = await Promise.all(
      Array.from({ length: claimers }, async (_, index) => {
        const startedAt = performance.now()
        const result = await claimOnce(client, index, `race/${round}/**`)
        latencies.push(performance.now() - startedAt)
        return result
      }),
    )
    const winners = results.filter((result) => result.granted).length
    granted += winners
    if (winners === 1) singleWinnerRounds += 1
  }
  return { latencies, singleWinnerRounds, rounds, granted }
}

async function requestsPerSecond(
  concurrency: number,
  total: number,
  run: () => Promise<void>,
): Promise<number> {
  let started = 0
  const startedAt = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started += 1
        await run()
      }
    }),
  )
  return total / ((performance.now() - startedAt) / 1000)
}

async function pushThroughput(client: SyncClient, clients: number, batch: number, total: number) {
  const text = 'The assistant explained the change to the lease arbiter and ran the tests again. '.repeat(10)
  const batches = Math.ceil(total / batch)
  let next = 0
  const latencies: number[] = []
  const startedAt = performance.now()
  await Promise.all(
    Array.from({ length: clients }, async (_, pusher) => {
      while (next < batches) {
        const number = next++
        const drafts = Array.from({ length: batch }, (_, index) =>
          eventDraft(`bench-${number}-${index}`, undefined, `${text}${number}/${index}`),
        )
        const pushStartedAt = performance.now()
        await client.push(drafts, `bench-pusher-${pusher}`)
        latencies.push(performance.now() - pushStartedAt)
      }
    }),
  )
  const ms = performance.now() - startedAt
  const sorted = latencies.sort((a, b) => a - b)
  return {
    records: batches * batch,
    ms,
    recordsPerSecond: (batches * batch) / (ms / 1000),
    pushesPerSecond: batches / (ms / 1000),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
  }
}

async function presenceFanOut(baseUrl: string, count: number): Promise<void> {
  const client = new SyncClient(baseUrl, newProjectId(), newProjectKey())
  expectOk(await client.create())
  const heard = { messages: 0, bytes: 0, welcomeBytes: 0 }
  const startedAt = performance.now()
  const sockets = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const socket = await SyncSocket.open(client.url('socket').replace(/^http/, 'ws'), client.key)
      socket.ws.on('message', (data: Buffer) => {
        const text = data.toString('utf8')
        if (text.startsWith('{"type":"presence"')) {
          heard.messages += 1
          heard.bytes += Buffer.byteLength(text)
        } else if (text.startsWith('{"type":"welcome"'))
          heard.welcomeBytes = Math.max(heard.welcomeBytes, Buffer.byteLength(text))
      })
      const actor = { human: `dev-${index}@example.dev`, vendor: 'claude' as const, sessionId: `s-${index}` }
      socket.send({ type: 'subscribe', actor, clientId: `presence-client-${index}`, after: 0 })
      await socket.next('welcome')
      return socket
    }),
  )
  const welcomedMs = performance.now() - startedAt
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const { presence } = expectOk<PresenceResponse>(await client.request('presence'))
  const entryBytes = Buffer.byteLength(JSON.stringify(presence)) / Math.max(1, presence.length)
  let oldBytes = 0
  for (let online = 2; online <= count; online++) oldBytes += (online - 1) * (online * entryBytes + 30)
  const oldMessages = (count * (count - 1)) / 2
  say(
    `presence: ${count} sockets subscribing at once: ${heard.messages} presence messages, ` +
      `${(heard.bytes / 1e6).toFixed(2)} MB, all welcomed in ${(welcomedMs / 1000).toFixed(2)} s, largest welcome ${(heard.welcomeBytes / 1024).toFixed(0)} KiB`,
  )
  say(
    `  the old rule for ${count} sockets: ${oldMessages} messages, ${(oldBytes / 1e6).toFixed(1)} MB ` +
      `(${(oldMessages / Math.max(1, heard.messages)).toFixed(0)}× the messages, ${(oldBytes / Math.max(1, heard.bytes)).toFixed(0)}× the bytes)`,
  )
  await Promise.all(sockets.map((socket) => socket.close()))
}

function print(label: string, latencies: number[], baseline?: number[]): void {
  const sorted = [...latencies].sort((a, b) => a - b)
  const p50 = percentile(sorted, 50)
  const p95 = percentile(sorted, 95)
  const ratio =
    baseline === undefined
      ? ''
      : ` (${(
          p50 /
            percentile(
              [...baseline].sort((a, b) => a - b),
              50,
            )
        ).toFixed(1)}× the no-op p50)`
  say(`${label}: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${latencies.length}${ratio}`)
}

function say(line: string): void {
  process.stdout.write(`${line}\n`)
}

await main()
