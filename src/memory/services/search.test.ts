import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { ManualClock } from '../../shared/clock.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { MemorySearch, rankedCandidates } from './search.ts'

const now = Date.parse('2026-11-10T12:00:00Z')
const day = 24 * 60 * 60 * 1000
const clock = new ManualClock(now)

/** The ids of what a search finds, best first. */
function rankedIds(
  db: ConstructorParameters<typeof MemorySearch>[0],
  input: Parameters<MemorySearch['search']>[0],
) {
  return new MemorySearch(db, clock).search(input).hits.map((hit) => hit.id)
}

test('identical text stored as tool output and as the human turn: the human turn ranks first', async () => {
  await using memory = memoryFixture()
  const text = 'rename the lease table to lease_grant and keep the fencing token column'
  const [toolId, humanId, assistantId] = memory.store.add(
    { kind: 'tool_output', text, at: now - 3 * day },
    { kind: 'human', text, at: now - 5 * day },
    { kind: 'assistant', text, at: now - 4 * day },
  )
  assert.deepEqual(rankedIds(memory.db, { text: 'fencing token' }), [humanId, assistantId, toolId])
})

test('identical kind and text: the newer event ranks first', async () => {
  await using memory = memoryFixture()
  const text = 'the integration queue must never move main without the lock'
  const [older, newer, middle] = memory.store.add(
    { kind: 'assistant', text, at: now - 6 * day },
    { kind: 'assistant', text, at: now - 1 * day },
    { kind: 'assistant', text, at: now - 3 * day },
  )
  assert.deepEqual(rankedIds(memory.db, { text: 'integration lock' }), [newer, middle, older])
})

test('more relevant text beats a heavier kind only when the difference is real', async () => {
  await using memory = memoryFixture()
  const [dense, passing] = memory.store.add(
    {
      kind: 'tool_output',
      text: 'retry backoff: retry with backoff; retry again with longer backoff',
      at: now - day,
    },
    {
      kind: 'human',
      text: `we talked about many things today, and one was retry and backoff ${'x '.repeat(200)}`,
    },
  )
  assert.deepEqual(rankedIds(memory.db, { text: 'retry backoff', since: 'all' }), [dense, passing])
})

test('all words must occur, in any order; a quoted phrase must occur as written', async () => {
  await using memory = memoryFixture()
  const [both, reversed] = memory.store.add(
    { text: 'the daemon writes its discovery file once listening' },
    { text: 'listening first, then the discovery file the daemon writes' },
    { text: 'the daemon alone' },
  )
  const search = new MemorySearch(memory.db, clock)
  const anyOrder = search.search({ text: 'daemon discovery', since: 'all' }).hits.map((hit) => hit.id)
  assert.deepEqual(anyOrder.sort(), [both, reversed].sort())
  const phrase = search.search({ text: '"discovery file once"', since: 'all' }).hits.map((hit) => hit.id)
  assert.deepEqual(phrase, [both])
})

test('FTS5 syntax typed by a user is searched as text, never an error', async () => {
  await using memory = memoryFixture()
  const [id] = memory.store.add({ text: 'run: git push and --force-with-lease origin NEAR(main) "quoted"' })
  const search = new MemorySearch(memory.db, clock)
  for (const text of ['force-with-lease', 'NEAR(main)', 'run:', '"quoted', 'push AND', 'origin*', '-force']) {
    const hits = search.search({ text, since: 'all' }).hits
    assert.deepEqual(
      hits.map((hit) => hit.id),
      [id],
      text,
    )
  }
})

test('a hit carries attribution, a marked snippet and bounded text', async () => {
  await using memory = memoryFixture()
  const long = `${'padding words here '.repeat(40)}the fencing token strictly increases ${'tail '.repeat(200)}`
  memory.store.add({
    text: long,
    kind: 'assistant',
    vendor: 'codex',
    cliVersion: '0.171.0',
    sessionId: 'rollout-1',
    branch: 'feat/leases',
    cwd: '/work/widget/server',
    author: 'asha@example.com',
    at: '2026-11-09T08:00:00Z',
  })
  const [hit] = new MemorySearch(memory.db, clock).search({ text: 'fencing' }).hits
  assert.ok(hit)
  assert.equal(hit.kind, 'assistant')
  assert.equal(hit.vendor, 'codex')
  assert.equal(hit.cliVersion, '0.171.0')
  assert.equal(hit.sessionId, 'rollout-1')
  assert.equal(hit.branch, 'feat/leases')
  assert.equal(hit.cwd, '/work/widget/server')
  assert.equal(hit.author, 'asha@example.com')
  assert.equal(hit.at, '2026-11-09T08:00:00.000Z')
  assert.match(hit.snippet, /«fencing»/)
  assert.ok(hit.text.length <= 500 && hit.truncated)
})

test('filters apply before the limit: vendor, kind, session, branch, window', async () => {
  await using memory = memoryFixture()
  const ids = memory.store.add(
    {
      text: 'migrate the schema',
      vendor: 'claude',
      kind: 'human',
      sessionId: 'a',
      branch: 'main',
      at: now - day,
    },
    {
      text: 'migrate the schema',
      vendor: 'codex',
      kind: 'assistant',
      sessionId: 'b',
      branch: 'dev',
      at: now - day,
    },
    {
      text: 'migrate the schema',
      vendor: 'codex',
      kind: 'tool_call',
      sessionId: 'b',
      branch: 'dev',
      at: now - 20 * day,
    },
  )
  const search = new MemorySearch(memory.db, clock)
  const found = (input: Parameters<MemorySearch['search']>[0]): string[] =>
    search
      .search(input)
      .hits.map((hit) => hit.id)
      .sort()
  assert.deepEqual(found({ text: 'migrate' }), [ids[0], ids[1]].sort())
  assert.deepEqual(found({ text: 'migrate', since: 'all' }), [...ids].sort())
  assert.deepEqual(found({ text: 'migrate', since: '2026-10-01' }), [...ids].sort())
  assert.deepEqual(found({ text: 'migrate', since: 'all', vendor: 'codex' }), [ids[1], ids[2]].sort())
  assert.deepEqual(
    found({ text: 'migrate', since: 'all', kinds: ['human', 'tool_call'] }),
    [ids[0], ids[2]].sort(),
  )
  assert.deepEqual(found({ text: 'migrate', since: 'all', sessionId: 'a' }), [ids[0]])
  assert.deepEqual(found({ text: 'migrate', since: 'all', branch: 'dev' }), [ids[1], ids[2]].sort())
  assert.deepEqual(found({ text: 'migrate', since: 'all', until: '10d' }), [ids[2]])
  assert.deepEqual(found({ text: 'migrate', since: 'all', vendor: 'codex', limit: 1 }), [ids[1]])
})

test('an empty store, or nothing in the window, is an empty answer', async () => {
  await using memory = memoryFixture()
  const search = new MemorySearch(memory.db, clock)
  assert.deepEqual(search.search({ text: 'anything' }).hits, [])
  memory.store.add({ text: 'old news about anything', at: now - 30 * day })
  assert.deepEqual(search.search({ text: 'anything' }).hits, [])
  assert.equal(search.search({ text: 'anything', since: 'all' }).hits.length, 1)
})

test('bad input is INVALID_INPUT: no words, a bad window, a bad limit', async () => {
  await using memory = memoryFixture()
  const search = new MemorySearch(memory.db, clock)
  for (const input of [
    { text: '  ' },
    { text: 'x', since: 'last tuesday' },
    { text: 'x', until: 'soon' },
    { text: 'x', limit: 0 },
    { text: 'x', limit: 1000 },
  ]) {
    assert.throws(
      () => search.search(input),
      (error: unknown) => error instanceof SangamError && error.code === ErrorCode.InvalidInput,
    )
  }
})

test('ranking reads only the newest matches, so an old match drops out behind many new ones', async () => {
  await using memory = memoryFixture()
  const [old] = memory.store.add({ text: 'cache invalidation plan', kind: 'human', at: now - 9 * day })
  memory.store.add(
    ...Array.from({ length: rankedCandidates }, (_, i) => ({
      text: `tool log line ${i} mentions cache invalidation among many other words to make it long`,
      kind: 'tool_output' as const,
      at: now - day + i,
    })),
  )
  const search = new MemorySearch(memory.db, clock)
  assert.ok(!search.search({ text: 'cache invalidation', limit: 200 }).hits.some((hit) => hit.id === old))
  assert.deepEqual(
    search.search({ text: 'cache invalidation', kinds: ['human'] }).hits.map((hit) => hit.id),
    [old],
  )
})

test('whatever a user types, search answers or says INVALID_INPUT: FTS5 never sees its syntax', async () => {
  await using memory = memoryFixture()
  memory.store.add({ text: 'a "quoted" NEAR(x y) col:val * - ^ AND OR NOT {braces} (parens) \\ café' })
  const search = new MemorySearch(memory.db, clock)
  const typed = fc.string({
    unit: fc.constantFrom(...'"\'*-:^(){}[]+., \tANDORNEAR col x é'.split('')),
    maxLength: 24,
  })
  fc.assert(
    fc.property(typed, (text) => {
      try {
        search.search({ text, since: 'all' })
      } catch (error) {
        assert.ok(error instanceof SangamError && error.code === ErrorCode.InvalidInput, String(error))
      }
    }),
    { numRuns: 500 },
  )
})
