import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { test } from 'node:test'
import { replicateCorpus, transcriptsUnder } from '../../../test/helpers/capture-corpus.ts'
import { eventIdentity } from '../../../test/helpers/capture-fixture.ts'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { silentLogger } from '../../shared/logger.ts'
import type { Db } from '../../store/database.ts'
import { eventSelect, toStoredEvent } from '../store/event-table.ts'
import { listSourceFiles } from '../store/source-file-table.ts'
import { Capture } from './capture.ts'

const project = '/work/widget'

function captureInto(db: Db, workerMinBytes: number): Capture {
  return new Capture({
    db,
    clock: new ManualClock(Date.parse('2026-11-29T12:00:00Z')),
    log: silentLogger,
    scope: { since: null, contains: (cwd) => cwd.startsWith(project) },
    author: 'dev@example.com',
    readerFor,
    workerMinBytes,
    groupBytes: 256 * 1024,
    batchLines: 400,
  })
}

function stored(db: Db): { events: string[]; files: string[] } {
  return {
    events: (db.prepare(`${eventSelect} ORDER BY e.id`).all() as unknown[])
      .map(toStoredEvent)
      .map(eventIdentity),
    files: listSourceFiles(db).map((row) =>
      [
        row.path,
        row.offset,
        row.fingerprint,
        row.lines,
        row.captured,
        row.skipped,
        row.unknown,
        row.unparseable,
        row.events,
      ].join(' '),
    ),
  }
}

for (const mode of ['backfill', 'live'] as const) {
  test(`a ${mode} catch-up read by a worker thread stores exactly what a single-threaded one stores`, async () => {
    await using home = tmpDir()
    replicateCorpus({ home: home.path, cwd: project, targetBytes: 6 * 1024 * 1024 })
    const locations = transcriptsUnder(home.path)
    const alone = openDatabaseFile(join(home.path, 'alone.db'))
    const paired = openDatabaseFile(join(home.path, 'paired.db'))
    try {
      const one = await captureInto(alone, Number.POSITIVE_INFINITY).catchUp(locations, { mode })
      const two = await captureInto(paired, 0).catchUp(locations, { mode })
      assert.deepEqual(two, one)
      assert.ok(one.inserted > 1000)
      assert.deepEqual(stored(paired), stored(alone))
    } finally {
      alone.close()
      paired.close()
    }
  })
}

test('a worker-thread catch-up after a rewrite, a move and appends stores exactly what a single-threaded one stores', async () => {
  await using home = tmpDir()
  // Past the corpus's Claude Code transcripts (6 MB), so that some Codex rollouts are copied too.
  const corpus = replicateCorpus({ home: home.path, cwd: project, targetBytes: 6.5 * 1024 * 1024 })
  const locate = () => transcriptsUnder(home.path)
  const alone = openDatabaseFile(join(home.path, 'alone.db'))
  const paired = openDatabaseFile(join(home.path, 'paired.db'))
  try {
    const first = locate()
    await captureInto(alone, Number.POSITIVE_INFINITY).catchUp(first, { mode: 'backfill' })
    await captureInto(paired, 0).catchUp(first, { mode: 'backfill' })

    const claude = corpus.files.filter((path) => path.includes('/.claude/'))
    const rollout = corpus.files.find((path) => path.includes('/sessions/'))
    assert.ok(claude.length >= 2 && rollout)
    // Rewritten in place: the first half of its lines, so the file shrinks below the stored offset.
    const rewritten = claude[0] ?? ''
    const lines = readFileSync(rewritten, 'utf8').split('\n')
    writeFileSync(rewritten, `${lines.slice(0, Math.ceil(lines.length / 2)).join('\n')}\n`)
    // Grown: its own lines again, at new offsets.
    const grown = claude[1] ?? ''
    writeFileSync(grown, readFileSync(grown, 'utf8').repeat(2))
    // Archived by Codex, then appended to under its new path.
    const archived = join(home.path, '.codex', 'archived_sessions', basename(rollout))
    mkdirSync(join(archived, '..'), { recursive: true })
    renameSync(rollout, archived)
    writeFileSync(
      archived,
      `${readFileSync(archived, 'utf8')}${readFileSync(archived, 'utf8').split('\n')[1]}\n`,
    )

    const second = locate()
    const one = await captureInto(alone, Number.POSITIVE_INFINITY).catchUp(second, { mode: 'backfill' })
    const two = await captureInto(paired, 0).catchUp(second, { mode: 'backfill' })
    assert.deepEqual(two, one)
    assert.equal(one.resets, 1)
    assert.equal(one.moved, 1)
    assert.ok(one.inserted > 0)
    assert.deepEqual(stored(paired), stored(alone))
  } finally {
    alone.close()
    paired.close()
  }
})
