import assert from 'node:assert/strict'
import { test } from 'node:test'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { openConnection } from '../../store/connection.ts'
import { EventSearch } from './event-search.ts'

test('the bundled SQLite ignores a bound rowid equality beside MATCH (why EventSearch does not use one)', () => {
  const db = openConnection(':memory:', { timeoutMs: 5000 })
  try {
    db.exec('CREATE VIRTUAL TABLE t USING fts5 (text)')
    const insert = db.prepare('INSERT INTO t (rowid, text) VALUES (?, ?)')
    insert.run(1, 'alpha one')
    insert.run(2, 'alpha two')
    insert.run(3, 'alpha three')
    const bound = db.prepare('SELECT rowid FROM t WHERE t MATCH ? AND rowid = ?').pluck()
    const literal = db.prepare('SELECT rowid FROM t WHERE t MATCH ? AND rowid = 2').pluck()
    const range = db.prepare('SELECT rowid FROM t WHERE t MATCH ? AND rowid <= ? ORDER BY rowid DESC').pluck()
    assert.deepEqual(literal.all('alpha'), [2])
    assert.deepEqual(range.all('alpha', 2), [2, 1])
    // If this one fails, SQLite honours the bound form again and event-search.ts may use it.
    assert.deepEqual(bound.all('alpha', 2), [1, 2, 3])
  } finally {
    db.close()
  }
})

test('each hit carries the snippet of its own event, not of the oldest match, in the order asked', async () => {
  await using memory = memoryFixture()
  const texts = ['alpha one first', 'alpha two second', 'alpha three third', 'alpha four fourth']
  memory.store.add(...texts.map((text) => ({ text })))
  const search = new EventSearch(memory.db)
  const candidates = search.candidates('"alpha"', {}, 10)
  assert.equal(candidates.length, 4)
  const asked = [candidates[2], candidates[0], candidates[3]].map((candidate) => candidate?.seq ?? 0)
  const hits = search.hits(asked, '"alpha"')
  assert.deepEqual(
    hits.map((hit) => hit.event.seq),
    asked,
  )
  for (const hit of hits) assert.equal(hit.snippet.replace(/[«»]/g, ''), hit.event.text)
})
