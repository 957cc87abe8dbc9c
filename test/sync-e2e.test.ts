import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import type { SyncedRecord } from '../src/sync/protocol/record.ts'
import { attachBoth, connectedDaemons, type Machine, serverRecords, syncWorld } from './helpers/sync-world.ts'
import { startProxy } from './helpers/tcp-proxy.ts'
import { eventually, type UpProcess } from './helpers/up-process.ts'
import { claudeEdit, runAgentHook } from './hooks-agent-run.ts'

/**
 * Two machines (own HOME, ~/.claude, ~/.codex, SANGAM_HOME, clone of one repository) and one
 * `sangam serve`, every part a real process: what one machine's agents say is found on the other,
 * leases taken on one are enforced on the other, and no fault of server or network loses or
 * duplicates a record.
 */
after(killAllServes)

/** Nothing lost, nothing twice: the server's log is gapless with unique ids and one record per turn. */
function assertExactlyOnce(records: readonly SyncedRecord[], texts: readonly string[]): void {
  assert.deepEqual(
    records.map((record) => record.gseq),
    records.map((_, index) => index + 1),
    'gseqs are 1, 2, 3, … with no gap',
  )
  assert.equal(new Set(records.map((record) => record.id)).size, records.length, 'no id twice')
  const said = records.flatMap((record) => (record.type === 'event' ? [record.payload.text] : []))
  for (const text of texts) assert.equal(said.filter((t) => t === text).length, 1, `exactly once: ${text}`)
}

function remoteTexts(machine: Machine): string[] {
  return machine.events().flatMap((event) => (event.sourcePath?.includes('/alice/') ? [event.text] : []))
}

const connections = (up: UpProcess) => up.statuses.filter((status) => status.type === 'sync-connected')

const lastApplied = (up: UpProcess): number =>
  Math.max(
    0,
    ...up.statuses.filter((status) => status.type === 'sync-applied').map((status) => Number(status.cursor)),
  )

/** Waits until `up` has applied the server's whole log and nothing new came for a second; its cursor. */
async function settledCursor(up: UpProcess, reader: Machine): Promise<number> {
  const until = Date.now() + 30_000
  for (let stableSince = Date.now(); Date.now() < until; ) {
    const head = (await serverRecords(reader)).length
    if (lastApplied(up) !== head) stableSince = Date.now()
    else if (Date.now() - stableSince >= 1000) return head
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.fail(`the daemon did not catch up with the server: applied ${lastApplied(up)}`)
}

async function leasePatterns(machine: Machine): Promise<string[]> {
  const { leases } = await machine.cliJson<{ leases: { pattern: string }[] }>(['leases'])
  return leases.map((lease) => lease.pattern)
}

test("a turn said on A is found by search on B; a lease taken on B makes A's PreToolUse hook deny", async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await using _daemons = await connectedDaemons(world)
  a.say('alice-session', 'the axolotl migration breaks the nightly export')
  await eventually(() => b.search('axolotl') === 1, 20_000, "alice's turn searchable on bob")
  const search = await b.cliJson<{ hits: { author: string; text: string }[] }>(['search', 'axolotl'])
  assert.equal(search.hits[0]?.author, 'alice@x.dev')

  await b.cliJson(['claim', 'src/export.ts', '--reason', 'fixing the nightly export'])
  await eventually(
    async () => (await leasePatterns(a)).includes('src/export.ts'),
    20_000,
    "bob's lease on alice's replica",
  )
  // The hook decides from alice's replica alone: with the server gone it still denies.
  await world.server.stop()
  const run = await runAgentHook('claude', claudeEdit(a.repo, join(a.repo, 'src', 'export.ts')), {
    cwd: a.repo,
    env: a.env,
  })
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.output?.hookSpecificOutput?.permissionDecision, 'deny', run.stdout)
  assert.match(
    run.output?.hookSpecificOutput?.permissionDecisionReason ?? '',
    /src\/export\.ts is leased to bob@x\.dev .*"fixing the nightly export"/,
  )
})

test('killing and restarting the server (same data) loses and duplicates nothing', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await using daemons = await connectedDaemons(world)
  const texts = Array.from({ length: 60 }, (_, i) => `restart turn ${i} token${i}r`)
  for (const text of texts.slice(0, 20)) a.say('alice-restart', text)
  // Crashed with pushes likely in flight: a push either committed whole or not at all.
  await new Promise((resolve) => setTimeout(resolve, 30))
  await world.restartServer('crash')
  for (const text of texts.slice(20, 40)) a.say('alice-restart', text)
  await world.restartServer('stop')
  for (const text of texts.slice(40)) a.say('alice-restart', text)
  await eventually(() => remoteTexts(b).length === 60, 60_000, 'all 60 turns on bob')
  assert.deepEqual([...remoteTexts(b)].sort(), [...texts].sort(), 'bob has each turn once')
  assertExactlyOnce(await serverRecords(a), texts)
  // Nothing orders a daemon's `sync-connected` line on its stdout before what it applied in the store.
  await eventually(
    () => connections(daemons.a).length >= 2 && connections(daemons.b).length >= 2,
    15_000,
    'both reconnected',
  )
})

test('a machine offline for long catches up in pages; its own offline work is pushed when it returns', async () => {
  await using world = await syncWorld()
  await using proxyB = await startProxy(world.server.url)
  const { a, b } = world
  await attachBoth(world, { urlB: proxyB.url })
  await using upA = a.up()
  await upA.waitFor('sync-connected')
  // Bob is away: his daemon runs, but the network is gone.
  await proxyB.offline(true)
  await using upB = b.up()
  await upB.waitFor('sync-offline')
  const texts = Array.from({ length: 2500 }, (_, i) => `backlog turn ${i} token${i}b`)
  for (const text of texts) a.say('alice-backlog', text)
  b.say('bob-offline', 'bob wrote this on the plane: the capybara cache')
  await eventually(() => b.search('capybara') === 1, 20_000, "bob's own turn captured offline")
  await eventually(
    () =>
      upA.statuses
        .filter((status) => status.type === 'sync-pushed')
        .reduce((n, s) => n + Number(s.records), 0) >= 2500,
    120_000,
    "alice's backlog on the server",
  )
  await proxyB.offline(false)
  await eventually(() => remoteTexts(b).length === 2500, 120_000, 'the backlog on bob')
  await eventually(() => a.search('capybara') === 1, 30_000, "bob's offline turn on alice")
  assert.equal(new Set(remoteTexts(b)).size, 2500, 'no turn twice')
  assertExactlyOnce(await serverRecords(a), [...texts, 'bob wrote this on the plane: the capybara cache'])
})

test('a dropped WebSocket reconnects and resumes from the last gseq', async () => {
  await using world = await syncWorld()
  await using proxyB = await startProxy(world.server.url)
  const { a, b } = world
  await using daemons = await connectedDaemons(world, { urlB: proxyB.url })
  a.say('alice-ws', 'before the drop: the walrus index')
  await eventually(() => b.search('walrus') === 1, 20_000, 'the first turn on bob')
  // The daemons also share room records of their own (each worktree's state, once, at their
  // first overlap round): cut only once bob has applied everything the server holds.
  const cursorBefore = await settledCursor(daemons.b, a)
  const seenBefore = proxyB.requests().length
  proxyB.cut()
  a.say('alice-ws', 'after the drop: the octopus index')
  await eventually(() => b.search('octopus') === 1, 30_000, 'the second turn on bob')
  await eventually(() => connections(daemons.b).length === 2, 30_000, 'bob subscribed again')
  // A connection carries several requests (keep-alive): read every request line in what was sent.
  const pulls = proxyB
    .requests()
    .slice(seenBefore)
    .flatMap((head) =>
      [...head.matchAll(/GET \/v1\/projects\/[^/]+\/records\?after=(\d+)/g)].map((m) => m[1]),
    )
  assert.deepEqual(
    pulls.slice(0, 1),
    [String(cursorBefore)],
    'the reconnection read on from the last gseq applied',
  )
  // …and subscribed after the records it had missed: at the last gseq it applied before
  // subscribing (the turn, and any room records the daemons shared meanwhile, such as worktree
  // states: how many is a matter of timing, not of the protocol).
  const reconnected = daemons.b.statuses.indexOf(
    connections(daemons.b)[1] as (typeof daemons.b.statuses)[number],
  )
  const caughtUp = daemons.b.statuses
    .slice(0, reconnected)
    .filter((status) => status.type === 'sync-applied')
    .map((status) => Number(status.cursor))
  assert.ok(Math.max(...caughtUp) > cursorBefore, 'the reconnection pulled what it had missed')
  assert.equal(connections(daemons.b)[1]?.cursor, Math.max(...caughtUp), 'and subscribed after it')
  // A daemon's room records (its worktree state after its first overlap round) may still be on
  // their way: compare once bob has applied through the server's head (a skipped record would hold
  // his cursor below it for good).
  const head = await settledCursor(daemons.b, a)
  const applied = daemons.b.statuses
    .filter((status) => status.type === 'sync-applied')
    .reduce((n, status) => n + Number(status.records), 0)
  assert.equal(applied, head, 'every record applied once: nothing skipped, nothing repeated')
  assert.deepEqual(remoteTexts(b).sort(), [
    'after the drop: the octopus index',
    'before the drop: the walrus index',
  ])
})
