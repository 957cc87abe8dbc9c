import assert from 'node:assert/strict'
import { test } from 'node:test'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { ManualClock } from '../../shared/clock.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { activityChart } from './activity-chart.ts'
import { MemorySearch } from './search.ts'
import { latestHumanTurn, latestSessionActivity, timeline, timelineTextChars } from './timeline.ts'

const now = Date.parse('2026-11-10T12:30:00Z')
const hour = 60 * 60 * 1000
const clock = new ManualClock(now)
const handles = (sessionId: string): string | null => (sessionId === 's-claude' ? 'claude-lane-one' : null)

function fill(memory: ReturnType<typeof memoryFixture>): string[] {
  return memory.store.add(
    {
      sessionId: 's-claude',
      vendor: 'claude',
      kind: 'human',
      text: 'fix the lease expiry',
      at: now - 5 * hour,
      cwd: '/w/one',
    },
    {
      sessionId: 's-claude',
      vendor: 'claude',
      kind: 'assistant',
      text: 'looking at expiry.ts',
      at: now - 4 * hour,
      cwd: '/w/one/src',
    },
    {
      sessionId: 's-codex',
      vendor: 'codex',
      kind: 'human',
      text: 'write the board page',
      at: now - 3 * hour,
      cwd: '/w/two',
      author: 'bo@example.com',
    },
    {
      sessionId: 's-codex',
      vendor: 'codex',
      kind: 'tool_call',
      text: 'apply_patch board.ts',
      at: now - 2 * hour,
      cwd: '/w/two',
      author: 'bo@example.com',
    },
    // Same instant as the one before: the page order breaks the tie by storage order.
    {
      sessionId: 's-claude',
      vendor: 'claude',
      kind: 'tool_output',
      text: 'tests pass',
      at: now - 2 * hour,
      cwd: '/w/one-more',
    },
  )
}

test('the timeline is newest first, with handles, and pages through everything once', async () => {
  await using memory = memoryFixture()
  const ids = fill(memory)
  const first = timeline(memory.db, clock, { limit: 2 }, handles)
  assert.deepEqual(
    first.events.map((event) => event.id),
    [ids[4], ids[3]],
  )
  assert.equal(first.events[0]?.handle, 'claude-lane-one')
  assert.equal(first.events[1]?.handle, null)
  assert.equal(first.events[0]?.snippet, null)
  assert.ok(first.next)
  const second = timeline(memory.db, clock, { limit: 2, before: first.next }, handles)
  const third = timeline(memory.db, clock, { limit: 2, before: second.next ?? '' }, handles)
  assert.deepEqual(
    [...first.events, ...second.events, ...third.events].map((event) => event.id),
    [...ids].reverse(),
  )
  assert.equal(third.next, null)
})

test('filters: a session, a human, a vendor, kinds, a worktree (its subfolders, not its siblings)', async () => {
  await using memory = memoryFixture()
  const ids = fill(memory)
  const of = (input: Parameters<typeof timeline>[2]) =>
    timeline(memory.db, clock, input, handles).events.map((event) => event.id)
  assert.deepEqual(of({ limit: 50, actor: { sessionId: 's-codex' } }), [ids[3], ids[2]])
  assert.deepEqual(of({ limit: 50, actor: { author: 'bo@example.com' } }), [ids[3], ids[2]])
  assert.deepEqual(of({ limit: 50, vendor: 'claude' }), [ids[4], ids[1], ids[0]])
  assert.deepEqual(of({ limit: 50, kinds: ['human', 'tool_call'] }), [ids[3], ids[2], ids[0]])
  assert.deepEqual(of({ limit: 50, worktree: '/w/one' }), [ids[1], ids[0]])
})

test('with q, the timeline is the search: the same hits in the same order, under the same filters', async () => {
  await using memory = memoryFixture()
  fill(memory)
  memory.store.add({
    sessionId: 's-claude',
    kind: 'assistant',
    text: 'the lease table and its expiry',
    at: now - hour,
    cwd: '/w/one',
  })
  const page = timeline(memory.db, clock, { limit: 20, q: 'expiry' }, handles)
  const search = new MemorySearch(memory.db, clock).search({ text: 'expiry', limit: 20 })
  assert.deepEqual(
    page.events.map((event) => [event.id, event.score]),
    search.hits.map((hit) => [hit.id, hit.score]),
  )
  assert.ok(page.events.every((event) => event.snippet?.includes('«')))
  assert.equal(page.next, null)
  const narrowed = timeline(memory.db, clock, { limit: 20, q: 'expiry', worktree: '/w/one/src' }, handles)
  assert.deepEqual(
    narrowed.events.map((event) => event.text),
    ['looking at expiry.ts'],
  )
  assert.deepEqual(
    timeline(memory.db, clock, { limit: 20, q: 'expiry', actor: { author: 'bo@example.com' } }, handles)
      .events,
    [],
  )
})

test('long text is cut; a bad limit or a made-up cursor is INVALID_INPUT', async () => {
  await using memory = memoryFixture()
  memory.store.add({ text: 'word '.repeat(2000), at: now - hour })
  const [event] = timeline(memory.db, clock, { limit: 1 }, handles).events
  assert.equal(event?.truncated, true)
  assert.ok((event?.text.length ?? Infinity) <= timelineTextChars)
  for (const input of [
    { limit: 0 },
    { limit: 201 },
    { limit: 10, before: 'yesterday' },
    { limit: 10, before: '1.2.3' },
  ]) {
    assert.throws(
      () => timeline(memory.db, clock, input, handles),
      (error: unknown) => error instanceof SangamError && error.code === ErrorCode.InvalidInput,
      JSON.stringify(input),
    )
  }
})

test("what a session and a human last did: the newest event, cut; a human's turn within the window", async () => {
  await using memory = memoryFixture()
  fill(memory)
  assert.deepEqual(latestSessionActivity(memory.db, 's-codex', 5), {
    at: now - 2 * hour,
    kind: 'tool_call',
    text: 'apply',
  })
  assert.equal(latestSessionActivity(memory.db, 'nobody', 50), null)
  assert.deepEqual(latestHumanTurn(memory.db, 'bo@example.com', { now, withinMs: 4 * hour, chars: 100 }), {
    at: now - 3 * hour,
    kind: 'human',
    text: 'write the board page',
  })
  assert.equal(latestHumanTurn(memory.db, 'bo@example.com', { now, withinMs: hour, chars: 100 }), null)
})

test('charts: whole hours, the current one last; per session and in all; notes count in all only', async () => {
  await using memory = memoryFixture()
  fill(memory)
  memory.store.add(
    { vendor: 'sangam', sessionId: 'note', kind: 'note', text: 'a decision', at: now - 10 * 60 * 1000 },
    // Older than the day: in neither chart.
    { sessionId: 's-claude', text: 'long ago', at: now - 30 * hour },
  )
  const chart = activityChart(memory.db, now, handles)
  assert.equal(chart.since, Date.parse('2026-11-09T13:00:00Z'))
  assert.equal(chart.eventsPerHour.length, 24)
  assert.equal(chart.eventsPerHour[23]?.hour, Date.parse('2026-11-10T12:00:00Z'))
  const counts = chart.eventsPerHour.map((bucket) => bucket.count)
  assert.deepEqual(counts.slice(18), [1, 1, 1, 2, 0, 1])
  assert.equal(
    counts.reduce((a, b) => a + b, 0),
    6,
  )
  assert.deepEqual(
    chart.activity.map((series) => [series.actor, series.vendor, series.perHour.slice(18)]),
    [
      ['claude-lane-one', 'claude', [1, 1, 0, 1, 0, 0]],
      ['codex-s-codex', 'codex', [0, 0, 1, 1, 0, 0]],
    ],
  )
})
