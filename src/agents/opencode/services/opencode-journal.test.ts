import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { test } from 'node:test'
import { tmpDir } from '../../../../test/helpers/tmp-git-repo.ts'
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
