import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { replicateCorpus, transcriptsUnder } from '../../../test/helpers/capture-corpus.ts'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { silentLogger } from '../../shared/logger.ts'
import { snippetMarks } from '../store/event-search.ts'
import { getEventById } from '../store/event-table.ts'
import { Capture } from './capture.ts'
import { MemorySearch } from './search.ts'

const project = '/work/widget'
const now = Date.parse('2026-11-29T12:00:00Z')

test('over a real corpus, every hit of a many-hit search shows a snippet cut from its own text', async () => {
  await using home = tmpDir()
  replicateCorpus({ home: home.path, cwd: project, targetBytes: 3 * 1024 * 1024 })
  const db = openDatabaseFile(join(home.path, 'sangam.db'))
  try {
    const clock = new ManualClock(now)
    await new Capture({
      db,
      clock,
      log: silentLogger,
      scope: { since: null, contains: (cwd) => cwd.startsWith(project) },
      author: 'dev@example.com',
      readerFor,
    }).catchUp(transcriptsUnder(home.path), { mode: 'backfill' })
    db.exec(`CREATE VIRTUAL TABLE temp.vocab USING fts5vocab (main, event_fts, 'row')`)
    // Words in many events but not in most: each query has many hits with different texts.
    const words = db
      .prepare(
        `SELECT term FROM temp.vocab WHERE length(term) > 4 AND term GLOB '[a-z]*' AND doc BETWEEN 30 AND 400
         ORDER BY doc DESC LIMIT 25`,
      )
      .pluck()
      .all() as string[]
    assert.ok(words.length >= 10, `the corpus yields common words (${words.length})`)
    const search = new MemorySearch(db, clock)
    let checked = 0
    for (const word of words) {
      const { hits } = search.search({ text: word, since: 'all', limit: 50 })
      assert.ok(hits.length > 1, `"${word}" has several hits`)
      assert.ok(new Set(hits.map((hit) => hit.snippet)).size > 1, `"${word}": the hits' snippets differ`)
      for (const hit of hits) {
        const own = getEventById(db, hit.id)?.text ?? ''
        assert.ok(hit.snippet.includes(snippetMarks.open), `"${word}" ${hit.id}: the snippet marks a match`)
        const fragments = hit.snippet
          .replaceAll(snippetMarks.open, '')
          .replaceAll(snippetMarks.close, '')
          .split(snippetMarks.ellipsis)
          .filter((fragment) => fragment.trim() !== '')
        for (const fragment of fragments) {
          assert.ok(own.includes(fragment), `"${word}" ${hit.id}: "${fragment}" is not in its own text`)
        }
        checked++
      }
    }
    assert.ok(checked > 200, `checked ${checked} hits`)
  } finally {
    db.close()
  }
})
