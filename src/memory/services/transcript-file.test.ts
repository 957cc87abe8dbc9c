import assert from 'node:assert/strict'
import { mkdirSync, renameSync, truncateSync, utimesSync } from 'node:fs'
import { dirname } from 'node:path'
import { test } from 'node:test'
import { captureFixture, eventIdentity } from '../../../test/helpers/capture-fixture.ts'
import { toyLine, toyReader } from '../../../test/helpers/capture-toy-reader.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { silentLogger } from '../../shared/logger.ts'
import { OutboxReader } from '../../sync/store/outbox.ts'
import { Capture } from './capture.ts'

const cwd = '/work/widget'
const line = (n: number, extra: Record<string, unknown> = {}): string =>
  toyLine({ t: 'h', s: 'sx', cwd, text: `line ${n}`, at: n, ...extra })

test('a truncated file is read again from the start, without duplicating events', async () => {
  await using f = captureFixture()
  const path = f.write('t.jsonl', line(1) + line(2) + line(3))
  const capture = f.capture()
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  truncateSync(path, line(1).length)
  f.append('t.jsonl', toyLine({ t: 'h', s: 'sx', text: 'replacement' }))

  const result = capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })

  assert.equal(result.reset, true)
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['line 1', 'replacement'],
  )
  const row = f.row('t.jsonl')
  assert.deepEqual([row.lines, row.captured, row.events, row.resets], [2, 2, 2, 1])
})

test('a file rewritten in place with the same size is detected by its fingerprint and read again', async () => {
  await using f = captureFixture()
  const path = f.write('r.jsonl', line(1) + line(2))
  const capture = f.capture()
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  f.write('r.jsonl', line(1) + line(3))

  assert.equal(capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' }).reset, true)
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['line 1', 'line 3'],
  )
})

test('a file rewritten with other words gives them new ids, stores them in place of the old, and queues them for the team', async () => {
  await using f = captureFixture()
  const path = f.write('w.jsonl', line(1) + line(2) + line(3))
  const capture = f.capture()
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  const before = f.events()
  // As if a server had received every event: the push watermark is the newest seq.
  const pushedTo = Math.max(...before.map((event) => event.seq))

  f.write('w.jsonl', line(1) + toyLine({ t: 'h', s: 'sx', text: 'other words' }) + line(3).replace('3', '4'))
  assert.equal(capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' }).reset, true)

  const after = f.events()
  assert.deepEqual(
    after.map((event) => event.text),
    ['line 1', 'other words', 'line 4'],
  )
  assert.equal(after[0]?.id, before[0]?.id, 'unchanged content keeps its id')
  assert.notEqual(after[1]?.id, before[1]?.id)
  assert.notEqual(after[2]?.id, before[2]?.id)
  const outbox = new OutboxReader(f.db).read(pushedTo, ['human', 'assistant'], 100)
  assert.deepEqual(
    outbox.events.map(({ event }) => [event.id, event.text]),
    after.map((event) => [event.id, event.text]),
    'every event of the new generation is above the watermark, so it is pushed; the server keeps what it has by id',
  )
})

test('the same transcript read at another path (or by another machine) gets the same ids', async () => {
  await using a = captureFixture()
  await using b = captureFixture()
  const content = line(1) + line(2) + toyLine({ t: 'a', s: 'sx', text: 'line 1' })
  a.capture().syncFile({ path: a.write('one/x.jsonl', content), vendor: 'claude' }, { mode: 'backfill' })
  b.capture().syncFile({ path: b.write('two/y.jsonl', content), vendor: 'claude' }, { mode: 'backfill' })
  const ids = a.events().map((event) => event.id)
  assert.deepEqual(
    b.events().map((event) => event.id),
    ids,
  )
  assert.equal(new Set(ids).size, 3)
})

test('a file rewritten shorter is read again', async () => {
  await using f = captureFixture()
  const path = f.write('s.jsonl', line(1) + line(2) + line(3))
  const capture = f.capture()
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  f.write('s.jsonl', line(9))
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['line 9'],
  )
  assert.equal(f.row('s.jsonl').events, 1)
})

test('live: a torn final line waits, and is captured once and whole when its writer finishes it', async () => {
  await using f = captureFixture()
  f.clock.set(Date.now())
  const second = line(2)
  const path = f.write('torn.jsonl', line(1) + second.slice(0, 20))
  const capture = f.capture()

  const first = capture.syncFile({ path, vendor: 'claude' }, { mode: 'live' })
  assert.equal(first.pendingBytes, 20)
  assert.ok(first.retryAt !== null && first.retryAt > f.clock.now())
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['line 1'],
  )

  f.append('torn.jsonl', second.slice(20))
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'live' })
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['line 1', 'line 2'],
  )
  assert.equal(f.row('torn.jsonl').unparseable, 0)
})

test('live: a final line without a newline is taken once the file is quiet, and its newline arriving later changes nothing', async () => {
  await using f = captureFixture()
  const path = f.write('quiet.jsonl', line(1) + line(2).trimEnd())
  const quietSince = Date.now() - 5000
  utimesSync(path, quietSince / 1000, quietSince / 1000)
  f.clock.set(Date.now())
  const capture = f.capture()
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'live' })
  assert.equal(f.row('quiet.jsonl').tailOpen, true)
  assert.equal(f.events().length, 2)

  f.append('quiet.jsonl', `\n${line(3)}`)
  const result = capture.syncFile({ path, vendor: 'claude' }, { mode: 'live' })
  assert.equal(result.reset, false)
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['line 1', 'line 2', 'line 3'],
  )
  assert.equal(f.row('quiet.jsonl').lines, 3)
})

test('a fragment taken as the final line is retracted when its writer continues it', async () => {
  await using f = captureFixture()
  const second = line(2)
  const path = f.write('frag.jsonl', line(1) + second.slice(0, 15))
  const capture = f.capture()
  capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  assert.equal(f.row('frag.jsonl').unparseable, 1)

  f.append('frag.jsonl', second.slice(15))
  assert.equal(capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' }).reset, true)
  const row = f.row('frag.jsonl')
  assert.deepEqual([row.lines, row.captured, row.unparseable], [2, 2, 0])
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['line 1', 'line 2'],
  )
})

test('resuming from any commit point yields exactly the events of one uninterrupted read', async () => {
  const content = Array.from({ length: 40 }, (_, i) =>
    i % 7 === 3 ? toyLine({ t: 'a', s: 'sx', j: `m${i - 1}`, text: `more ${i}` }) : line(i, { j: `m${i}` }),
  ).join('')
  await using whole = captureFixture()
  const wholePath = whole.write('c.jsonl', content)
  whole.capture().syncFile({ path: wholePath, vendor: 'claude' }, { mode: 'backfill' })

  await using pieces = captureFixture()
  const path = pieces.write('c.jsonl', content)
  let status = 'more'
  for (let round = 0; status === 'more'; round++) {
    // A new Capture each round: nothing survives but what was committed, as after a crash.
    status = pieces
      .capture({ batchLines: 3 })
      .syncFile({ path, vendor: 'claude' }, { mode: 'backfill', maxCommits: 1 }).status
    assert.ok(round < 100)
  }
  // Ids included: they depend on what the events say, never on the path or on where commits fell.
  assert.deepEqual(pieces.events().map(eventIdentity), whole.events().map(eventIdentity))
  const a = whole.row('c.jsonl')
  const b = pieces.row('c.jsonl')
  assert.deepEqual(
    [b.lines, b.captured, b.events, b.offset, b.fingerprint],
    [a.lines, a.captured, a.events, a.offset, a.fingerprint],
  )
})

test('two processes syncing one file never count or store a line twice', async () => {
  await using f = captureFixture()
  const path = f.write('race.jsonl', Array.from({ length: 20 }, (_, i) => line(i)).join(''))
  const other = new Capture({
    db: openDatabaseFile(f.db.name),
    clock: f.clock,
    log: silentLogger,
    scope: { since: null, contains: () => true },
    author: 'dev@example.com',
    readerFor: () => toyReader,
  })
  let interleaved = false
  f.capture({ batchLines: 5 }).syncFile(
    { path, vendor: 'claude' },
    {
      mode: 'backfill',
      onCommit: () => {
        if (interleaved) return
        interleaved = true
        other.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
      },
    },
  )
  const row = f.row('race.jsonl')
  assert.deepEqual([row.lines, row.captured, row.events], [20, 20, 20])
  assert.equal(f.events().length, 20)
})

test('a rollout moved to archived_sessions keeps its row and events, and later lines are captured', async () => {
  await using f = captureFixture()
  const live = f.write('sessions/2026/11/01/rollout-a.jsonl', line(1) + line(2))
  const capture = f.capture()
  capture.syncFile({ path: live, vendor: 'codex' }, { mode: 'backfill' })
  const archived = f.path('archived_sessions/rollout-a.jsonl')
  mkdirSync(dirname(archived), { recursive: true })
  renameSync(live, archived)
  f.append('archived_sessions/rollout-a.jsonl', line(3))

  assert.equal(capture.syncFile({ path: live, vendor: 'codex' }, { mode: 'backfill' }).status, 'missing')
  const moved = capture.syncFile({ path: archived, vendor: 'codex' }, { mode: 'backfill' })

  assert.equal(moved.movedFrom, live)
  assert.equal(moved.inserted, 1)
  assert.deepEqual(
    f.events().map((event) => [event.text, event.sourcePath]),
    [
      ['line 1', archived],
      ['line 2', archived],
      ['line 3', archived],
    ],
  )
})
