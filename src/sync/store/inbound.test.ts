import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import type { Lease } from '../../leases/protocol/lease.ts'
import { readLeaseLog, readLeases } from '../../leases/store/lease-table.ts'
import type { Event } from '../../memory/protocol/event.ts'
import { EventWriter } from '../../memory/store/event-table.ts'
import { listActiveSessions } from '../../memory/store/session-table.ts'
import { listSourceFiles } from '../../memory/store/source-file-table.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import type { SyncedRecord } from '../protocol/record.ts'
import { RecordApplier } from './inbound.ts'
import { readSyncState, startSyncState } from './state-table.ts'

const now = Date.parse('2026-11-29T10:00:00.000Z')
const alice = { human: 'alice@x.dev', vendor: 'claude' as const, sessionId: 'sess-a' }
const origin = { serverUrl: 'http://127.0.0.1:8787', projectId: 'prj_1' }

function remoteEvent(id: string, text: string, fields: Partial<Event> = {}): Event {
  return {
    id,
    kind: 'human',
    vendor: 'claude',
    cliVersion: '2.1.80',
    sessionId: 'sess-a',
    author: 'alice@x.dev',
    cwd: '/home/alice/repo',
    branch: 'main',
    at: '2026-11-29T09:00:00.000Z',
    sourcePath: '/home/alice/.claude/projects/-repo/sess-a.jsonl',
    byteOffset: 0,
    part: 0,
    toolName: null,
    callId: null,
    text,
    fullSize: text.length,
    shareable: true,
    ...fields,
  }
}

function served(gseq: number, event: Event): SyncedRecord {
  const stamp = { gseq, receivedAt: '2026-11-29T09:00:01.000Z', at: event.at }
  return { ...stamp, id: event.id, type: 'event', actor: alice, payload: event }
}

const lease: Lease = {
  pattern: 'src/store/**',
  holder: alice,
  kind: 'claim',
  reason: 'schema work',
  token: 7,
  takenAt: now,
  renewedAt: now,
  expiresAt: now + 3_600_000,
}

/** The server's record of `granted` (to its holder), the `gseq`th of the log, at 10:00. */
function grantRecord(gseq: number, granted: Lease): SyncedRecord {
  const at = '2026-11-29T10:00:00.000Z'
  return {
    gseq,
    receivedAt: at,
    id: `srv_${gseq}`,
    type: 'lease.granted',
    actor: granted.holder,
    at,
    payload: { lease: granted, renewed: false },
  }
}

async function replica() {
  const dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  startSyncState(db, origin.serverUrl, origin.projectId, now)
  const search = (word: string) =>
    (db.prepare('SELECT rowid FROM event_fts WHERE event_fts MATCH ?').all(word) as unknown[]).length
  return {
    db,
    applier: new RecordApplier(db, origin),
    search,
    async [Symbol.asyncDispose]() {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

test("a teammate's events become searchable, with their session and a thread-able file row", async () => {
  await using r = await replica()
  const first = remoteEvent('ev_1', 'migrate the parquet exporter')
  const second = remoteEvent('ev_2', 'done with parquet', { kind: 'assistant', byteOffset: 120 })
  const outcome = r.applier.apply([served(1, first), served(2, second)], now)
  assert.deepEqual(outcome, {
    applied: 2,
    events: 2,
    leaseChanges: 0,
    roomRecords: 0,
    worktreeStates: 0,
    stale: 0,
    gapAfter: null,
    cursor: 2,
  })
  assert.equal(r.search('parquet'), 2)
  assert.equal(readSyncState(r.db)?.cursor, 2)
  assert.deepEqual(
    listActiveSessions(r.db, 0, 10).map((session) => [session.id, session.author, session.events]),
    [['sess-a', 'alice@x.dev', 2]],
  )
  const [file] = listSourceFiles(r.db)
  assert.deepEqual([file?.path, file?.inScope], [first.sourcePath, false])
  const marks = r.db
    .prepare('SELECT id, origin_gseq AS gseq, received_at AS at FROM event ORDER BY seq')
    .all()
  assert.deepEqual(marks, [
    { id: 'ev_1', gseq: 1, at: now },
    { id: 'ev_2', gseq: 2, at: now },
  ])
})

test('applying the same records again changes nothing', async () => {
  await using r = await replica()
  const records = [served(1, remoteEvent('ev_1', 'alpha')), served(2, remoteEvent('ev_2', 'beta'))]
  r.applier.apply(records, now)
  const again = r.applier.apply(records, now + 1000)
  assert.deepEqual([again.applied, again.stale, again.cursor], [0, 2, 2])
  assert.equal((r.db.prepare('SELECT count(*) AS n FROM event').get() as { n: number }).n, 2)
})

test('a hole in the order stops the apply before it; nothing after the hole is stored', async () => {
  await using r = await replica()
  const outcome = r.applier.apply(
    [served(1, remoteEvent('ev_1', 'alpha')), served(3, remoteEvent('ev_3', 'gamma'))],
    now,
  )
  assert.deepEqual([outcome.applied, outcome.gapAfter, outcome.cursor], [1, 1, 1])
  assert.equal(r.search('gamma'), 0)
})

test("this machine's own event coming back moves the cursor and changes nothing else", async () => {
  await using r = await replica()
  const own = remoteEvent('ev_own', 'my own words', { sourcePath: null, vendor: 'sangam', kind: 'note' })
  r.db.transaction(() =>
    new EventWriter(r.db).insert({
      ...own,
      at: Date.parse(own.at),
      sourceFileId: null,
      joinKey: null,
    }),
  )()
  const outcome = r.applier.apply([served(1, own)], now)
  assert.deepEqual([outcome.applied, outcome.events, outcome.cursor], [1, 0, 1])
  const row = r.db.prepare('SELECT origin_gseq AS gseq FROM event WHERE id = ?').get('ev_own')
  assert.deepEqual(row, { gseq: null }, 'still a local event')
})

test('lease records keep the lease mirror and the lease log', async () => {
  await using r = await replica()
  const granted = grantRecord(1, lease)
  r.applier.apply([granted], now)
  assert.deepEqual(readLeases(r.db, now), [lease])
  const bob = { human: 'bob@x.dev', vendor: null, sessionId: null }
  const released: SyncedRecord = {
    gseq: 2,
    receivedAt: '2026-11-29T10:05:00.000Z',
    id: 'srv_2',
    type: 'lease.released',
    actor: bob,
    at: '2026-11-29T10:05:00.000Z',
    payload: { lease, forceReason: 'alice is away' },
  }
  r.applier.apply([released], now)
  assert.deepEqual(readLeases(r.db, now), [])
  const log = readLeaseLog(r.db, 0, ['granted', 'force-released'], 10)
  assert.deepEqual(
    log.map((entry) => [entry.action, entry.by.human, entry.reason]),
    [
      ['force-released', 'bob@x.dev', 'alice is away'],
      ['granted', 'alice@x.dev', 'schema work'],
    ],
  )
})

test('a granted token held by a stale row replaces it instead of failing', async () => {
  await using r = await replica()
  const stale = { ...lease, pattern: 'docs/**', holder: { ...alice, sessionId: 'other' } }
  r.applier.apply([grantRecord(1, stale), grantRecord(2, lease)], now)
  assert.deepEqual(readLeases(r.db, now), [lease])
})

test('records from a server this replica is no longer attached to are refused, and change nothing', async () => {
  await using r = await replica()
  startSyncState(r.db, 'https://another.example.dev', 'prj_1', now)
  assert.throws(() => r.applier.apply([served(1, remoteEvent('ev_1', 'stale'))], now), {
    code: 'SERVER_REFUSED',
    message: /now attached to https:\/\/another\.example\.dev/,
  })
  assert.equal(r.search('stale'), 0)
  assert.equal(readSyncState(r.db)?.cursor, 0)
})

test('a record of a type with no applier fails its whole batch: nothing applied, the cursor stays', async () => {
  await using r = await replica()
  // The edge refuses such a record (sync/protocol/record.test.ts); this is the second line.
  const unknown = { ...served(2, remoteEvent('ev_2', 'later')), type: 'message' } as unknown as SyncedRecord
  assert.throws(() => r.applier.apply([served(1, remoteEvent('ev_1', 'earlier')), unknown], now), {
    code: 'INTERNAL',
    message: /record 2 has type "message", which this sangam cannot apply/,
  })
  assert.equal(r.search('earlier'), 0)
  assert.equal(readSyncState(r.db)?.cursor, 0)
})

test('a record from an older server carrying a secret is applied with every free-text field redacted', async () => {
  await using r = await replica()
  const token = ['ghp', '_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('')
  const granted = grantRecord(1, {
    ...lease,
    pattern: `keys/${token}`,
    reason: `rotating ${token}`,
  })
  const event = served(2, remoteEvent('ev_secret', `the token is ${token}`, { branch: `fix/${token}` }))
  r.applier.apply([granted, event], now)
  const [stored] = readLeases(r.db, now)
  assert.equal(stored?.pattern, 'keys/[REDACTED:github-token]')
  assert.equal(stored?.reason, 'rotating [REDACTED:github-token]')
  const row = r.db.prepare('SELECT text, branch FROM event WHERE id = ?').get('ev_secret')
  assert.deepEqual(
    { ...(row as object) },
    { text: 'the token is [REDACTED:github-token]', branch: 'fix/[REDACTED:github-token]' },
  )
})
