import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { replicateCorpus } from '../../test/helpers/capture-corpus.ts'
import { eventIdentity } from '../../test/helpers/capture-fixture.ts'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { ManualClock } from '../shared/clock.ts'
import { silentLogger } from '../shared/logger.ts'
import { type Db, openDatabaseFile } from '../store/database.ts'
import { eventSelect, toStoredEvent } from '../store/event-table.ts'
import { listSourceFiles } from '../store/source-file-table.ts'
import { discoverTranscripts, transcriptRoots } from '../transcripts/transcript-locations.ts'
import { Capture } from './capture.ts'
import { readerFor } from './capture-readers.ts'

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
    const locations = discoverTranscripts(
      transcriptRoots({ claudeConfigDir: join(home.path, '.claude'), codexHome: join(home.path, '.codex') }),
    )
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
