import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { connectionOver, openConnection } from '../../store/connection.ts'
import { nodeSqlite } from '../../store/node-sqlite.ts'
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
  const candidates = search.candidates('"alpha"', {})
  assert.equal(candidates.length, 4)
  const asked = [candidates[2], candidates[0], candidates[3]].map((candidate) => candidate?.seq ?? 0)
  const hits = search.hits(asked, '"alpha"')
  assert.deepEqual(
    hits.map((hit) => hit.event.seq),
    asked,
  )
  for (const hit of hits) assert.equal(hit.snippet.replace(/[«»]/g, ''), hit.event.text)
})

test('searching again compiles no statement again, in a new EventSearch and whatever the values bound', async () => {
  // ctx_search and the dashboard make an EventSearch per query on a connection they keep; and the
  // SQLite in Node (3.54) compiles a statement anew on every run when a bound value sits in a LIMIT
  // or in a join's WHERE, which the search statements avoid (D391). SQLite asks the authorizer
  // each time it compiles a statement, so it tells which ones were.
  await using memory = memoryFixture()
  memory.store.add(
    { text: 'alpha beta one', source: '/t/a.jsonl', offset: 1, vendor: 'claude', kind: 'human' },
    { text: 'alpha gamma two', source: '/t/a.jsonl', offset: 2, vendor: 'claude', kind: 'assistant' },
    { text: 'beta gamma three', source: '/t/b.jsonl', offset: 1, vendor: 'codex', kind: 'human' },
    { text: 'alpha beta gamma four', source: '/t/b.jsonl', offset: 2, vendor: 'codex', kind: 'tool_output' },
  )
  const { DatabaseSync, constants } = nodeSqlite()
  const file = join(memory.dir.path, 'sangam.db')
  const raw = new DatabaseSync(file, { readOnly: true })
  // setAuthorizer and its codes are newer than the @types/node the project builds with.
  const watched = raw as unknown as {
    setAuthorizer(callback: (action: number, table: unknown) => number): void
  }
  const { SQLITE_READ, SQLITE_OK } = constants as unknown as Record<'SQLITE_READ' | 'SQLITE_OK', number>
  const compiled: string[] = []
  const connection = connectionOver(raw, file)
  const run = (match: string, filters: Parameters<EventSearch['candidates']>[1]) => {
    const search = new EventSearch(connection)
    const seqs = search.candidates(match, filters).map((candidate) => candidate.seq)
    const total = search.totalEvents()
    search.estimateMatches(match, total)
    search.latestAt()
    return search.hits(seqs, match)
  }
  try {
    watched.setAuthorizer((action, table) => {
      // FTS5 reads its index through a statement of its own, which SQLite compiles again on every
      // query: not the store's to change.
      if (action === SQLITE_READ && table !== 'event_fts_idx') compiled.push(String(table))
      return SQLITE_OK
    })
    assert.equal(run('"alpha"', {}).length, 3)
    assert.ok(compiled.length > 0, 'the first search compiles its statements')
    compiled.length = 0
    const again = [
      run('"beta"', { vendor: 'codex' }),
      run('"gamma"', { kinds: ['human', 'assistant'], since: 0, until: Date.parse('2100-01-01') }),
      run('"alpha" "beta"', { sessionId: 'session-1', cwdUnder: '/nowhere' }),
    ]
    assert.deepEqual(
      again.map((hits) => hits.length),
      [2, 2, 0],
    )
    assert.deepEqual(
      again[0]?.map((hit) => hit.event.sourcePath),
      ['/t/b.jsonl', '/t/b.jsonl'],
    )
    assert.deepEqual(compiled, [])
  } finally {
    raw.close()
  }
})
