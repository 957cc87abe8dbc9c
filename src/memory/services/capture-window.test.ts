import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { corpusDir } from '../../../test/helpers/corpus.ts'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { silentLogger } from '../../shared/logger.ts'
import { parseSince } from '../../shared/time-window.ts'
import { Capture } from './capture.ts'
import { newestRecordTime } from './capture-scope.ts'
import { MemorySearch } from './search.ts'

const day = 24 * 60 * 60 * 1000
const claudeFile = join(
  corpusDir,
  'claude',
  'd-kimuson__claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
)
const codexFile = join(corpusDir, 'codex', 'entireio__entire-graph__13_a55a80ec0f_1_full.jsonl')

/** A copy of a real transcript with every record time moved by `shiftMs`, from line `fromLine` on. */
function shifted(source: string, shiftMs: (lineNo: number) => number): string {
  return readFileSync(source, 'utf8')
    .split('\n')
    .map((line, lineNo) =>
      line.replace(/"timestamp":"([^"]+)"/g, (whole, at: string) => {
        const ms = Date.parse(at)
        return Number.isNaN(ms) ? whole : `"timestamp":"${new Date(ms + shiftMs(lineNo)).toISOString()}"`
      }),
    )
    .join('\n')
}

test('capture and search share one window: a touched old transcript is not indexed; one reaching into the window is, and is found', async () => {
  await using home = tmpDir()
  const now = Date.parse('2026-11-29T12:00:00Z')
  const since = parseSince(undefined, now)
  const newestOf = (path: string) => newestRecordTime(path) ?? 0
  const write = (name: string, text: string, mtime: number): string => {
    const path = join(home.path, '.claude', 'projects', '-w', name)
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(path, text)
    utimesSync(path, mtime / 1000, mtime / 1000)
    return path
  }
  // Old work (its newest record 30 days back), touched today: inside the window by mtime only.
  const oldTouched = write('old-touched.jsonl', '', now)
  const claudeNewest = newestOf(claudeFile)
  writeFileSync(
    oldTouched,
    shifted(claudeFile, () => now - 30 * day - claudeNewest),
  )
  utimesSync(oldTouched, now / 1000, now / 1000)
  // A session resumed today: its first half 20 days old, its second half from today.
  const codexText = readFileSync(codexFile, 'utf8')
  const half = Math.floor(codexText.split('\n').length / 2)
  const codexNewest = newestOf(codexFile)
  const resumed = join(
    home.path,
    '.codex',
    'sessions',
    '2026',
    '11',
    '29',
    'rollout-2026-11-29T00-00-00-x.jsonl',
  )
  mkdirSync(join(resumed, '..'), { recursive: true })
  writeFileSync(
    resumed,
    shifted(codexFile, (lineNo) => now - 60_000 - codexNewest - (lineNo < half ? 20 * day : 0)),
  )
  utimesSync(resumed, now / 1000, now / 1000)

  const db = openDatabaseFile(join(home.path, 'sangam.db'))
  try {
    const clock = new ManualClock(now)
    const summary = await new Capture({
      db,
      clock,
      log: silentLogger,
      scope: { since, contains: () => true },
      author: 'dev@example.com',
      readerFor,
    }).catchUp(
      [
        { path: oldTouched, vendor: 'claude' },
        { path: resumed, vendor: 'codex' },
      ],
      { mode: 'backfill' },
    )
    assert.equal(summary.outOfWindow, 1, 'the touched old transcript is out of the window')
    assert.equal(summary.captured, 1)
    const sources = db
      .prepare('SELECT DISTINCT f.path FROM event e JOIN source_file f ON f.id = e.source_file_id')
      .pluck()
      .all()
    assert.deepEqual(sources, [resumed])
    // Every indexed session has events the default search shows; the resumed one is read whole.
    const sessions = db.prepare('SELECT id, first_at AS firstAt, last_at AS lastAt FROM session').all() as {
      id: string
      firstAt: number
      lastAt: number
    }[]
    assert.equal(sessions.length, 1)
    assert.ok((sessions[0]?.lastAt ?? 0) >= since)
    assert.ok((sessions[0]?.firstAt ?? now) < since, 'the older half is kept as context')
    const recent = db
      .prepare(`SELECT text FROM event WHERE kind IN ('human', 'assistant') AND at >= ? ORDER BY at LIMIT 1`)
      .pluck()
      .get(since) as string | undefined
    assert.ok(recent, 'the resumed half has something said')
    const words = recent
      .split(/\W+/)
      .filter((word) => word.length > 3)
      .slice(0, 3)
      .join(' ')
    const hits = new MemorySearch(db, clock).search({ text: words }).hits
    assert.ok(hits.length > 0, `the default search finds "${words}"`)
  } finally {
    db.close()
  }
})

test('the newest record time is read from the end of the file, ignoring times quoted inside text', async () => {
  await using dir = tmpDir()
  const path = join(dir.path, 't.jsonl')
  const quoted = JSON.stringify({ text: '{"timestamp":"2030-01-01T00:00:00Z"}' })
  writeFileSync(
    path,
    [
      '{"timestamp":"2026-11-01T00:00:00Z","type":"user"}',
      `{"timestamp":"2026-11-02T00:00:00Z","message":${quoted}}`,
      `{"type":"last-prompt","lastPrompt":"x","pad":"${'y'.repeat(40_000)}"}`,
      '',
    ].join('\n'),
  )
  assert.equal(newestRecordTime(path), Date.parse('2026-11-02T00:00:00Z'))
  writeFileSync(path, '{"type":"summary"}\n')
  assert.equal(newestRecordTime(path), null)
})
