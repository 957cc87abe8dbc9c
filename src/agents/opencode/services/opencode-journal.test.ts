import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { test } from 'node:test'
import { tmpDir } from '../../../../test/helpers/tmp-git-repo.ts'
import type { ReadEvent } from '../../transcript-reader.ts'
import { type OpencodeState, opencodeReader } from '../opencode-reader.ts'
import { syncOpencodeJournal } from './opencode-journal.ts'

/** The three tables the journal reads, as opencode 1.18.33 creates them (its other tables left out). */
const schema = `
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text,
  slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`

function opencodeHome(dir: string): DatabaseSync {
  mkdirSync(dir, { recursive: true })
  const db = new DatabaseSync(join(dir, 'opencode.db'))
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(schema)
  db.prepare(
    "INSERT INTO session VALUES ('ses_a', 'global', NULL, NULL, 'slug', '/work/repo', '', 'Title', '1.18.33', 1000, 1000)",
  ).run()
  db.prepare(
    `INSERT INTO message VALUES ('msg_u', 'ses_a', 1001, 1001, '{"role":"user","time":{"created":1001}}'),
     ('msg_a', 'ses_a', 1002, 1002, '{"role":"assistant","time":{"created":1002}}')`,
  ).run()
  return db
}

function lines(file: string): { type: string; id: string }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const record = JSON.parse(line) as Record<string, { id: string }> & { type: string }
      return { type: record.type, id: record[record.type]?.id ?? '' }
    })
}

test('final parts are copied once, in order, each after its session and message; a streaming part waits', async () => {
  await using home = tmpDir('sangam-opencode-journal-')
  const data = join(home.path, 'opencode')
  const journal = join(home.path, 'journal')
  const db = opencodeHome(data)
  const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)')
  part.run('prt_1', 'msg_u', 'ses_a', 1001, 1001, '{"type":"text","text":"Fix the parser."}')
  part.run('prt_2', 'msg_a', 'ses_a', 1003, 1003, '{"type":"text","text":"Work","time":{"start":1003}}')
  const first = syncOpencodeJournal({ dataDir: data, journalDir: journal, now: 2000 })
  assert.deepEqual(first, { appended: 3, sessions: 1, busy: false })
  const file = join(journal, 'ses_a.jsonl')
  assert.deepEqual(lines(file), [
    { type: 'session', id: 'ses_a' },
    { type: 'message', id: 'msg_u' },
    { type: 'part', id: 'prt_1' },
  ])

  db.prepare('UPDATE part SET data = ?, time_updated = 1005 WHERE id = ?').run(
    '{"type":"text","text":"Working on it.","time":{"start":1003,"end":1005}}',
    'prt_2',
  )
  part.run('prt_3', 'msg_a', 'ses_a', 1006, 1006, '{"type":"step-finish","reason":"stop"}')
  assert.deepEqual(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: 3000 }), {
    appended: 3,
    sessions: 1,
    busy: false,
  })
  // Everything again, as after a lost watermark: the journal itself says what it holds.
  writeFileSync(join(journal, '.state.json'), '{"watermark":0}\n')
  assert.deepEqual(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: 4000 }).appended, 0)
  assert.deepEqual(lines(file), [
    { type: 'session', id: 'ses_a' },
    { type: 'message', id: 'msg_u' },
    { type: 'part', id: 'prt_1' },
    { type: 'message', id: 'msg_a' },
    { type: 'part', id: 'prt_2' },
    { type: 'part', id: 'prt_3' },
  ])
  const text = readFileSync(file, 'utf8')
  assert.match(text, /"text":"Working on it\."/, 'the part as it ended, not as it streamed')
  db.close()
})

test('a part a crash left unfinished is copied once it has been still for ten minutes; a running copier is waited for', async () => {
  await using home = tmpDir('sangam-opencode-journal-')
  const data = join(home.path, 'opencode')
  const journal = join(home.path, 'journal')
  const db = opencodeHome(data)
  db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(
    'prt_t',
    'msg_a',
    'ses_a',
    1003,
    1003,
    '{"type":"tool","tool":"bash","callID":"c","state":{"status":"running","input":{"command":"make"}}}',
  )
  assert.equal(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: 5000 }).appended, 0)
  mkdirSync(journal, { recursive: true })
  writeFileSync(join(journal, '.lock'), '')
  const now = Date.now()
  assert.deepEqual(syncOpencodeJournal({ dataDir: data, journalDir: journal, now }), {
    appended: 0,
    sessions: 0,
    busy: true,
  })
  assert.equal(
    syncOpencodeJournal({ dataDir: data, journalDir: journal, now: now + 120_000 }).appended,
    3,
    'a stale lock is taken over, and the part is copied as it was left',
  )
  db.close()
})

test('no opencode database: nothing to copy, no journal made', async () => {
  await using home = tmpDir('sangam-opencode-journal-')
  const result = syncOpencodeJournal({
    dataDir: join(home.path, 'none'),
    journalDir: join(home.path, 'j'),
    now: 1,
  })
  assert.deepEqual(result, { appended: 0, sessions: 0, busy: false })
})

/** The files of opencode 1.1.65's `storage/` folder as it wrote them, by path inside it. */
function legacyStorageFiles(): Record<string, string> {
  const fixture = join(import.meta.dirname, '../../../../test/fixtures/opencode/storage-1.1.65.json')
  return JSON.parse(readFileSync(fixture, 'utf8')) as Record<string, string>
}

/** opencode 1.1.65's `storage/` folder as it wrote it (test/fixtures/opencode/storage-1.1.65.json). */
function legacyStorage(dataDir: string): string {
  const files = legacyStorageFiles()
  const storage = join(dataDir, 'storage')
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(storage, path)), { recursive: true })
    writeFileSync(join(storage, path), text)
  }
  return storage
}

function readJournal(file: string): { state: OpencodeState; events: ReadEvent[]; classes: string[] } {
  let state = opencodeReader.initialState()
  const events: ReadEvent[] = []
  const classes: string[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const step = opencodeReader.read(state, JSON.parse(line))
    state = step.state
    events.push(...step.outcome.events)
    classes.push(step.outcome.class)
  }
  return { state, events, classes }
}

const legacySession = 'ses_dbd5310ffffeVsq6P2PPX2xcyw'
/** A time after the recorded session's (the journal's `now`). */
const later = 1_796_500_000_000

test("opencode 1.1's JSON storage is journalled like its database: the session's words once, attributed to its version", async () => {
  await using home = tmpDir('sangam-opencode-journal-')
  const data = join(home.path, 'opencode')
  const journal = join(home.path, 'journal')
  legacyStorage(data)
  const first = syncOpencodeJournal({ dataDir: data, journalDir: journal, now: later })
  // The session, five messages and their eleven parts.
  assert.deepEqual(first, { appended: 17, sessions: 1, busy: false })
  const read = readJournal(join(journal, `${legacySession}.jsonl`))
  assert.deepEqual(
    read.events.map((event) => [event.kind, event.toolName, event.text.trim()]),
    [
      ['human', null, 'Please echo the word kingfisher in the shell'],
      ['tool_call', 'bash', 'bash {"command":"echo kingfisher","description":"echo"}'],
      ['tool_output', 'bash', 'kingfisher'],
      ['assistant', null, 'The shell said kingfisher.'],
      ['human', null, 'And what did it print, heron?'],
      ['assistant', null, 'Still kingfisher, heron.'],
    ],
  )
  assert.ok(read.events.every((event) => event.sessionId === legacySession && event.cliVersion === '1.1.65'))
  assert.equal(read.state.firstCwd, '/home/dev/heron')
  assert.deepEqual(
    read.classes.filter((kind) => kind !== 'captured' && kind !== 'skipped'),
    [],
    'every line is understood',
  )
  // Unchanged, or forgotten by a restart: nothing again.
  assert.equal(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: later }).appended, 0)
  rmSync(join(journal, '.state.json'))
  assert.equal(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: later }).appended, 0)
})

test('a storage file read mid-write waits for the next copy; the session opencode 1.2 moved into its database is not copied twice', async () => {
  await using home = tmpDir('sangam-opencode-journal-')
  const data = join(home.path, 'opencode')
  const journal = join(home.path, 'journal')
  const storage = legacyStorage(data)
  const answer = join(
    storage,
    'part',
    'msg_242ad24f20019OmOrMmnr4xv3r',
    'prt_242ad2611001jKkONySUqmJW69.json',
  )
  const whole = readFileSync(answer, 'utf8')
  writeFileSync(answer, whole.slice(0, 60))
  assert.equal(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: later }).appended, 16)
  writeFileSync(answer, whole)
  assert.equal(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: later }).appended, 1)
  assert.equal(
    readJournal(join(journal, `${legacySession}.jsonl`)).events.filter((event) => event.kind === 'assistant')
      .length,
    2,
  )

  // opencode 1.2 copies the storage into its database, keeping every id.
  const db = new DatabaseSync(join(data, 'opencode.db'))
  db.exec(schema)
  const files = legacyStorageFiles()
  const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)')
  const message = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)')
  for (const [path, text] of Object.entries(files)) {
    const value = JSON.parse(text) as { id: string; sessionID: string; messageID: string }
    if (path.startsWith('part/')) part.run(value.id, value.messageID, value.sessionID, 5000, 5000, text)
    if (path.startsWith('message/')) message.run(value.id, value.sessionID, 5000, 5000, text)
  }
  db.close()
  assert.equal(syncOpencodeJournal({ dataDir: data, journalDir: journal, now: later }).appended, 0)
})
