import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { corpusDir } from '../../../test/helpers/corpus.ts'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { silentLogger } from '../../shared/logger.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from '../store/event-table.ts'
import { Capture } from './capture.ts'
import { renderThread } from './render.ts'
import { MemorySearch } from './search.ts'
import { MemoryThread } from './thread.ts'

const rollout = join(corpusDir, 'codex', 'entireio__entire-graph__13_a55a80ec0f_1_full.jsonl')
const now = Date.parse('2026-11-29T12:00:00Z')

async function capturedRollout(dir: string) {
  const db = openDatabaseFile(join(dir, 'sangam.db'))
  await new Capture({
    db,
    clock: new ManualClock(now),
    log: silentLogger,
    scope: { since: null, contains: () => true },
    author: 'dev@example.com',
    readerFor,
  }).catchUp([{ path: rollout, vendor: 'codex' }], { mode: 'backfill' })
  const events = (db.prepare(`${eventSelect} ORDER BY e.byte_offset, e.part`).all() as unknown[]).map(
    toStoredEvent,
  )
  return { db, events }
}

test('thread on a real Codex exec result shows what the command printed, not the exec header', async () => {
  await using dir = tmpDir()
  const { db, events } = await capturedRollout(dir.path)
  try {
    const execs = events.filter(
      (event) => event.kind === 'tool_output' && event.text.startsWith('Chunk ID: '),
    )
    assert.ok(execs.length > 5, `the rollout has exec results (${execs.length})`)
    const thread = new MemoryThread(db)
    for (const exec of execs) {
      const focus = thread.thread(exec.id).items.find((item) => item.focus)
      assert.ok(focus, exec.id)
      const printed = exec.text.slice(exec.text.indexOf('\nOutput:\n') + '\nOutput:\n'.length)
      assert.doesNotMatch(focus.text, /Chunk ID|Original token count|Wall time|Process exited/)
      assert.match(focus.status ?? '', /^(exit -?\d+|running \(session \d+\)) · [\d.]+ s$/)
      const firstLine = printed.split('\n')[0] ?? ''
      assert.ok(focus.text.startsWith(firstLine.slice(0, 150)), `${exec.id} starts with its output`)
    }
    // Stored verbatim: the header stays searchable, the output too.
    const hits = new MemorySearch(db, new ManualClock(now)).search({
      text: '"Process exited with code"',
      since: 'all',
    })
    assert.ok(hits.hits.length > 0)
  } finally {
    db.close()
  }
})

test('--before/--after bound a real turn around the focus, which the text marks', async () => {
  await using dir = tmpDir()
  const { db, events } = await capturedRollout(dir.path)
  try {
    const thread = new MemoryThread(db)
    // The focus with the longest turn around it.
    const turns = events
      .filter((event: StoredEvent) => event.kind === 'tool_output')
      .map((event) => ({ event, whole: thread.thread(event.id) }))
      .sort((a, b) => b.whole.items.length - a.whole.items.length)
    const longest = turns[0]
    assert.ok(longest && longest.whole.items.length > 10, 'a turn of more than 10 events')
    const at = longest.whole.items.findIndex((item) => item.focus)
    const bounded = thread.thread(longest.event.id, { before: 2, after: 3 })
    const expected = longest.whole.items.slice(Math.max(0, at - 2), at + 4).map((item) => item.id)
    assert.deepEqual(
      bounded.items.map((item) => item.id),
      expected,
    )
    assert.equal(bounded.omittedBefore, Math.max(0, at - 2))
    assert.equal(
      bounded.omittedAfter,
      longest.whole.items.length - Math.min(at + 4, longest.whole.items.length),
    )
    assert.equal(bounded.omitted, bounded.omittedBefore + bounded.omittedAfter)
    assert.equal(bounded.human?.id, longest.whole.human?.id, 'the human turn is always shown')
    const text = renderThread(bounded, now)
    const marked = text.split('\n').filter((line) => line.startsWith('▶ '))
    assert.equal(marked.length, 1)
    assert.ok(marked[0]?.endsWith(`${longest.event.id} (focus)`))
    if (bounded.omittedAfter > 0)
      assert.match(text, new RegExp(`\\(${bounded.omittedAfter} later events? of this turn not shown\\)$`))
    const none = thread.thread(longest.event.id, { before: 0, after: 0 })
    assert.deepEqual(
      none.items.map((item) => item.id),
      [longest.event.id],
    )
  } finally {
    db.close()
  }
})
