import assert from 'node:assert/strict'
import { test } from 'node:test'
import { captureFixture } from '../../../test/helpers/capture-fixture.ts'
import { toyLine } from '../../../test/helpers/capture-toy-reader.ts'
import { listActiveSessions } from '../store/session-table.ts'
import { listUnknownShapes } from '../store/unknown-shape-table.ts'
import { eventId, maxToolOutputChars } from './event-converter.ts'

const cwd = '/work/widget'

test('an event id is sha256 of its history, its number there and its content, whichever hashing API computes it', () => {
  const identity = {
    vendor: 'codex',
    thread: '019d7d08-46c9-7f73-affe-4e6ca9852d56',
    ordinal: 3,
    kind: 'human',
    toolName: null,
    callId: null,
    text: 'fix the parser, zoë',
  } as const
  assert.equal(eventId(identity), 'ev_e5c9fc9c1fb9b9ab75d2a544')
  assert.notEqual(eventId({ ...identity, text: 'fix the lexer, zoë' }), eventId(identity))
  assert.notEqual(eventId({ ...identity, ordinal: 4 }), eventId(identity))
  assert.notEqual(eventId({ ...identity, thread: 'other' }), eventId(identity))
})

test('an in-scope transcript is captured with deterministic ids, the human as author, and every line accounted for', async () => {
  await using f = captureFixture()
  const path = f.write(
    's1.jsonl',
    [
      toyLine({ t: 'meta' }),
      toyLine({ t: 'h', s: 's1', cwd, text: 'fix the parser', at: 1000 }),
      '\n',
      toyLine({ t: 'a', s: 's1', text: 'on it', at: 2000, b: 'main' }),
      toyLine({ t: 'enc' }),
      toyLine({ t: 'zzz', odd: true }),
      'not json\n',
      '42\n',
    ].join(''),
  )

  const result = f.capture().syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })

  assert.equal(result.status, 'caught-up')
  const events = f.events()
  assert.deepEqual(
    events.map((event) => [event.kind, event.text, event.author, event.branch]),
    [
      ['human', 'fix the parser', 'dev@example.com', null],
      ['assistant', 'on it', 'dev@example.com', 'main'],
    ],
  )
  const humanOffset = toyLine({ t: 'meta' }).length
  assert.equal(
    events[0]?.id,
    eventId({
      vendor: 'claude',
      thread: 's1',
      ordinal: 0,
      kind: 'human',
      toolName: null,
      callId: null,
      text: 'fix the parser',
    }),
  )
  assert.equal(events[0]?.byteOffset, humanOffset)
  const row = f.row('s1.jsonl')
  assert.deepEqual(
    [row.lines, row.captured, row.skipped, row.unknown, row.unparseable, row.events, row.encryptedReasoning],
    [7, 2, 2, 1, 2, 2, 1],
  )
  assert.deepEqual(row.skipReasons, { metadata: 1, encrypted: 1 })
  assert.equal(row.inScope, true)
  assert.equal(row.sessionId, 's1')
  assert.deepEqual(
    listUnknownShapes(f.db, row.id).map((shape) => [shape.recordType, shape.signature, shape.count]),
    [['zzz', 'odd,t', 1]],
  )
  assert.deepEqual(
    listActiveSessions(f.db, 0, 10).map((session) => [
      session.id,
      session.events,
      session.firstAt,
      session.lastAt,
    ]),
    [['s1', 2, 1000, 2000]],
  )
})

test("another project's transcript is ignored: its events never reach the store", async () => {
  await using f = captureFixture()
  const path = f.write('other.jsonl', toyLine({ t: 'h', s: 'o1', cwd: '/work/other', text: 'secret plans' }))
  const result = f.capture().syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  assert.equal(result.status, 'out-of-scope')
  assert.deepEqual(f.events(), [])
  assert.equal(f.row('other.jsonl').inScope, false)
})

test('a file is held undecided until a record gives its cwd, then read from its first line', async () => {
  await using f = captureFixture()
  const path = f.write('late.jsonl', toyLine({ t: 'h', s: 's2', text: 'before any cwd' }))
  const capture = f.capture()
  assert.equal(capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' }).status, 'undecided')
  assert.deepEqual(f.events(), [])

  f.append('late.jsonl', toyLine({ t: 'h', s: 's2', cwd: `${cwd}/src`, text: 'now with a cwd' }))
  assert.equal(capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' }).status, 'caught-up')
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['before any cwd', 'now with a cwd'],
  )
  assert.equal(f.row('late.jsonl').firstCwd, `${cwd}/src`)
})

test('a split message is appended to the event that carries its join key', async () => {
  await using f = captureFixture()
  const path = f.write(
    'split.jsonl',
    [
      toyLine({ t: 'a', s: 's3', cwd, j: 'msg_1', text: 'first block' }),
      toyLine({ t: 'a', s: 's3', j: 'msg_1', text: 'second block' }),
    ].join(''),
  )
  f.capture({ batchLines: 1 }).syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['first block\n\nsecond block'],
  )
  assert.equal(f.row('split.jsonl').events, 1)
  assert.equal(f.row('split.jsonl').captured, 2)
})

test('tool output keeps 16 KiB of scrubbed text, records its full size and is not shareable', async () => {
  await using f = captureFixture()
  const big = `token ghp_${'A'.repeat(36)} then ${'x'.repeat(40_000)}`
  const path = f.write('tool.jsonl', toyLine({ t: 'o', s: 's4', cwd, text: big }))
  f.capture().syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  const [event] = f.events()
  assert.equal(event?.text.length, maxToolOutputChars)
  assert.equal(event?.fullSize, big.length)
  assert.equal(event?.shareable, false)
  assert.match(event?.text ?? '', /^token \[REDACTED:github-token\] then x/)
})

test('secrets are scrubbed from text, cwd and branch before they are stored', async () => {
  await using f = captureFixture()
  const key = `sk-ant-api03-${'Z9'.repeat(20)}`
  const path = f.write(
    'secret.jsonl',
    toyLine({ t: 'h', s: 's5', cwd, text: `use ${key}`, b: `feature/${key}` }),
  )
  f.capture().syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  const [event] = f.events()
  assert.doesNotMatch(JSON.stringify(event), /Z9Z9Z9/)
  assert.match(event?.text ?? '', /REDACTED/)
})

test('two JSON objects on one line are one line, with one event part each', async () => {
  await using f = captureFixture()
  const line = `${JSON.stringify({ t: 'h', s: 's6', cwd, text: 'one' })}${JSON.stringify({ t: 'a', s: 's6', text: 'two' })}\n`
  const path = f.write('two.jsonl', line)
  f.capture().syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  assert.deepEqual(
    f.events().map((event) => [event.byteOffset, event.part, event.text]),
    [
      [0, 0, 'one'],
      [0, 1, 'two'],
    ],
  )
  assert.equal(f.row('two.jsonl').lines, 1)
})

test('CRLF endings and invalid UTF-8 are read, never fatal', async () => {
  await using f = captureFixture()
  const bad = Buffer.concat([
    Buffer.from(`${JSON.stringify({ t: 'h', s: 's7', cwd, text: 'crlf' })}\r\n`),
    Buffer.from('{"t":"h","text":"bad '),
    Buffer.from([0xc3, 0x28, 0xff]),
    Buffer.from('"}\r\n'),
  ])
  const path = f.write('enc.jsonl', bad)
  f.capture().syncFile({ path, vendor: 'claude' }, { mode: 'backfill' })
  assert.deepEqual(
    f.events().map((event) => event.text),
    ['crlf', 'bad \uFFFD(\uFFFD'],
  )
})

test('files modified before the window are not read', async () => {
  await using f = captureFixture()
  const path = f.write('old.jsonl', toyLine({ t: 'h', s: 's8', cwd, text: 'ancient' }))
  const capture = f.capture({ scope: { since: Date.now() + 60_000, contains: () => true } })
  assert.equal(capture.syncFile({ path, vendor: 'claude' }, { mode: 'backfill' }).status, 'out-of-window')
  assert.deepEqual(f.events(), [])
})
