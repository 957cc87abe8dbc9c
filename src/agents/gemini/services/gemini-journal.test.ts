import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { appendFileSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../../test/helpers/tmp-git-repo.ts'
import { geminiJournalDir } from '../../../config/data-paths.ts'
import { parseJsonValues } from '../../json-values.ts'
import { discoverTranscripts } from '../../transcript-locations.ts'
import type { ReadEvent, ReadOutcome } from '../../transcript-reader.ts'
import { transcriptRoots } from '../../vendors.ts'
import { geminiReader } from '../gemini-reader.ts'
import { geminiProjectRoot } from '../project-root.ts'
import { syncGeminiJournal } from './gemini-journal.ts'

const fixtures = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'gemini')
const firstSave = readFileSync(join(fixtures, 'session-0.38.2-shell.first-save.json'), 'utf8')
const afterResume = readFileSync(join(fixtures, 'session-0.38.2-shell-resume.json'), 'utf8')
const root = '/home/dev/heron'
const name = 'session-2026-12-04T20-14-05db2dec'

/** A Gemini CLI 0.38 home: `tmp/<folder>/chats/<name>.json`, `.project_root` beside when given. */
function geminiHome(dir: string, folder: string, projectRoot: string | null): string {
  const chats = join(dir, '.gemini', 'tmp', folder, 'chats')
  mkdirSync(chats, { recursive: true })
  if (projectRoot !== null) writeFileSync(join(dir, '.gemini', 'tmp', folder, '.project_root'), projectRoot)
  return join(chats, `${name}.json`)
}

/** Every line of a journal read as capture reads it: outcomes per line, the events in order. */
function readJournal(file: string): { outcomes: (ReadOutcome | 'unparseable')[]; events: ReadEvent[] } {
  let state = geminiReader.initialState()
  const outcomes: (ReadOutcome | 'unparseable')[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const values = parseJsonValues(line)
    if (values === null || values.length === 0) {
      outcomes.push('unparseable')
      continue
    }
    for (const value of values) {
      const step = geminiReader.read(geminiReader.restore(geminiReader.serialise(state)), value)
      state = step.state
      outcomes.push(step.outcome)
    }
  }
  const events = outcomes.flatMap((outcome) => (outcome === 'unparseable' ? [] : outcome.events))
  return { outcomes, events }
}

const wholeSession = [
  ['human', 'Please echo the word kingfisher in the shell'],
  ['tool_call', 'run_shell_command {"command":"echo kingfisher"}'],
  ['tool_output', 'Output: kingfisher\nProcess Group PGID: 19745'],
  ['assistant', 'The shell said kingfisher.'],
  ['human', 'And what did it print, heron?'],
  ['assistant', 'Still kingfisher, heron.'],
]

function kindsAndTexts(events: readonly ReadEvent[]): string[][] {
  return events.map((event) => [event.kind, event.text])
}

test('a Gemini CLI 0.38 session, rewritten whole on each save, is journalled so that each message is read once', async () => {
  await using home = tmpDir('sangam-gemini-journal-')
  const document = geminiHome(home.path, 'heron', root)
  const journalDir = geminiJournalDir(join(home.path, '.sangam'))
  const options = { geminiDir: join(home.path, '.gemini'), journalDir, projectRoots: [], now: 1 }
  writeFileSync(document, firstSave)
  assert.deepEqual(syncGeminiJournal(options), { appended: 4, sessions: 1, busy: false })
  const journal = join(journalDir, 'heron', 'chats', `${name}.jsonl`)
  assert.deepEqual(kindsAndTexts(readJournal(journal).events), wholeSession.slice(0, 4))

  // The CLI rewrites the document with the resumed turn: only the two new messages are appended.
  writeFileSync(document, afterResume)
  assert.deepEqual(syncGeminiJournal(options), { appended: 2, sessions: 1, busy: false })
  const read = readJournal(journal)
  assert.deepEqual(kindsAndTexts(read.events), wholeSession)
  assert.ok(read.events.every((event) => event.sessionId === '05db2dec-810d-48c5-b8ea-b8b45abf07d5'))
  assert.equal(read.events[1]?.callId, read.events[2]?.callId, 'the output is paired with its call')
  assert.deepEqual(
    read.outcomes.filter((outcome) => outcome === 'unparseable' || outcome.class === 'unknown'),
    [],
    'every line is understood',
  )

  // Unchanged, or forgotten by a restart (no state file): nothing is appended again.
  assert.equal(syncGeminiJournal(options).appended, 0)
  rmSync(join(journalDir, '.state.json'))
  assert.equal(syncGeminiJournal(options).appended, 0)
  assert.equal(geminiProjectRoot(journal), root, 'the project root is beside the journal')
})

test('a document read mid-write is read again whole; a journal line torn by a crash loses and repeats nothing', async () => {
  await using home = tmpDir('sangam-gemini-journal-')
  const document = geminiHome(home.path, 'heron', root)
  const journalDir = join(home.path, 'journal')
  const options = { geminiDir: join(home.path, '.gemini'), journalDir, projectRoots: [], now: 1 }
  writeFileSync(document, afterResume.slice(0, Math.floor(afterResume.length / 2)))
  assert.deepEqual(syncGeminiJournal(options), { appended: 0, sessions: 0, busy: false })
  writeFileSync(document, firstSave)
  assert.equal(syncGeminiJournal(options).appended, 4)

  // A crash mid-append left half of the last message's line.
  const journal = join(journalDir, 'heron', 'chats', `${name}.jsonl`)
  const text = readFileSync(journal, 'utf8')
  const lastLine = text.lastIndexOf('\n', text.length - 2) + 1
  truncateSync(journal, Buffer.byteLength(text.slice(0, lastLine + 40)))
  rmSync(join(journalDir, '.state.json'))
  writeFileSync(document, afterResume)
  assert.equal(syncGeminiJournal(options).appended, 3, 'the torn message again, and the two new')
  const read = readJournal(journal)
  assert.deepEqual(kindsAndTexts(read.events), wholeSession)
  assert.equal(read.outcomes.filter((outcome) => outcome === 'unparseable').length, 1, 'the torn line')
})

test('before 0.29 the project folder was the sha256 of the root: it is journalled for the project whose hash it is', async () => {
  await using home = tmpDir('sangam-gemini-journal-')
  const hash = createHash('sha256').update(root).digest('hex')
  const document = geminiHome(home.path, hash, null)
  writeFileSync(document, afterResume)
  const sangamHome = join(home.path, '.sangam')
  const journalDir = geminiJournalDir(sangamHome)
  const base = { geminiDir: join(home.path, '.gemini'), journalDir, now: 1 }
  assert.equal(syncGeminiJournal({ ...base, projectRoots: ['/home/dev/other'] }).appended, 0)
  assert.equal(syncGeminiJournal({ ...base, projectRoots: ['/home/dev/other', root] }).appended, 6)
  const journal = join(journalDir, hash, 'chats', `${name}.jsonl`)
  assert.equal(geminiProjectRoot(journal), root)
  const roots = transcriptRoots({
    claudeConfigDir: join(home.path, '.claude'),
    codexHome: join(home.path, '.codex'),
    geminiDir: join(home.path, '.gemini'),
    sangamHome,
  })
  assert.deepEqual(discoverTranscripts(roots), [{ path: journal, vendor: 'gemini' }])
})

test('a subagent document under its parent session folder is journalled in the same place', async () => {
  await using home = tmpDir('sangam-gemini-journal-')
  const chats = join(home.path, '.gemini', 'tmp', 'heron', 'chats')
  mkdirSync(join(chats, 'parent-id'), { recursive: true })
  writeFileSync(join(home.path, '.gemini', 'tmp', 'heron', '.project_root'), root)
  writeFileSync(
    join(chats, 'parent-id', 'child-id.json'),
    afterResume.replace('"kind": "main"', '"kind": "subagent"'),
  )
  appendFileSync(join(chats, 'notes.json'), '{}')
  const journalDir = join(home.path, 'journal')
  const sync = syncGeminiJournal({
    geminiDir: join(home.path, '.gemini'),
    journalDir,
    projectRoots: [],
    now: 1,
  })
  assert.deepEqual(sync, { appended: 6, sessions: 1, busy: false })
  assert.equal(
    readJournal(join(journalDir, 'heron', 'chats', 'parent-id', 'child-id.jsonl')).events.length,
    6,
  )
})

test('a real Gemini CLI 0.28.2 session, in the hash-named folder it wrote, is journalled for the served root', async () => {
  await using home = tmpDir('sangam-gemini-journal-')
  const hash = createHash('sha256').update(root).digest('hex')
  const chats = join(home.path, '.gemini', 'tmp', hash, 'chats')
  mkdirSync(chats, { recursive: true })
  writeFileSync(
    join(chats, 'session-2026-12-04T20-46-02639b0b.json'),
    readFileSync(join(fixtures, 'session-0.28.2-shell-resume.json')),
  )
  const journalDir = join(home.path, 'journal')
  const sync = syncGeminiJournal({
    geminiDir: join(home.path, '.gemini'),
    journalDir,
    projectRoots: [root],
    now: 1,
  })
  assert.deepEqual(sync, { appended: 7, sessions: 1, busy: false })
  const journal = join(journalDir, hash, 'chats', 'session-2026-12-04T20-46-02639b0b.jsonl')
  const read = readJournal(journal)
  assert.deepEqual(
    read.events.map((event) => [event.kind, event.text.split('\n')[0]]),
    [
      ['human', 'Please echo the word kingfisher in the shell'],
      ['tool_call', 'run_shell_command {"command":"echo kingfisher"}'],
      ['tool_output', 'Output: kingfisher'],
      ['assistant', 'The shell said kingfisher, heron.'],
      ['human', 'And what did it print, heron?'],
      ['tool_call', 'run_shell_command {"command":"echo kingfisher"}'],
      ['tool_output', 'Output: kingfisher'],
      ['assistant', 'The shell said kingfisher, heron.'],
    ],
  )
  assert.ok(read.events.every((event) => event.sessionId === '02639b0b-e73f-4a23-9bfb-e23477540e17'))
  assert.deepEqual(
    read.outcomes.filter((outcome) => outcome === 'unparseable' || outcome.class === 'unknown'),
    [],
  )
  assert.equal(geminiProjectRoot(journal), root)
})
