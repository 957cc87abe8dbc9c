import assert from 'node:assert/strict'
import { test } from 'node:test'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { ManualClock } from '../../shared/clock.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { getEventById } from '../store/event-table.ts'
import { noteIdPrefix } from '../store/note-events.ts'
import { MemoryNote, maxNoteChars } from './note.ts'
import { MemorySearch } from './search.ts'

const clock = new ManualClock(Date.parse('2026-11-10T09:00:00Z'))
const human = { human: 'asha@example.com', vendor: null, sessionId: null }
const base = { actor: human, cwd: '/work/widget', branch: 'main', version: '0.1.0' }

test('a note is an attributed event of kind note, searchable at once', async () => {
  await using memory = memoryFixture()
  const note = new MemoryNote(memory.db, clock).write({
    ...base,
    text: '  Decided: leases expire after 2h by default.  ',
  })
  const stored = getEventById(memory.db, note.id)
  assert.equal(stored?.kind, 'note')
  assert.equal(stored?.vendor, 'sangam')
  assert.equal(stored?.author, 'asha@example.com')
  assert.equal(stored?.sessionId, 'cli')
  assert.equal(stored?.cliVersion, '0.1.0')
  assert.equal(stored?.branch, 'main')
  assert.equal(stored?.text, 'Decided: leases expire after 2h by default.')
  assert.equal(stored?.at, '2026-11-10T09:00:00.000Z')
  const hits = new MemorySearch(memory.db, clock).search({ text: 'leases expire' }).hits
  assert.deepEqual(
    hits.map((hit) => hit.id),
    [note.id],
  )
})

test("an agent's note carries its session", async () => {
  await using memory = memoryFixture()
  const actor = { human: 'asha@example.com', vendor: 'claude' as const, sessionId: '1af7fc5e-8455' }
  const note = new MemoryNote(memory.db, clock).write({ ...base, actor, text: 'use the v2 parser' })
  assert.equal(note.sessionId, '1af7fc5e-8455')
  assert.equal(getEventById(memory.db, note.id)?.sessionId, '1af7fc5e-8455')
})

test('a note holding a secret is refused, naming the kind, and nothing is stored', async () => {
  await using memory = memoryFixture()
  const secret = ['ghp', '_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('')
  assert.throws(
    () => new MemoryNote(memory.db, clock).write({ ...base, text: `deploy token is ${secret}` }),
    (error: unknown) =>
      error instanceof SangamError &&
      error.code === ErrorCode.InvalidInput &&
      /^the note holds a secret \(github-token\); nothing was stored/.test(error.message) &&
      !error.message.includes(secret),
  )
  const count = memory.db.prepare('SELECT count(*) AS n FROM event').get() as { n: number }
  assert.equal(count.n, 0)
})

test('empty or oversized text is INVALID_INPUT and nothing is stored', async () => {
  await using memory = memoryFixture()
  const notes = new MemoryNote(memory.db, clock)
  for (const text of ['', '   \n\t', 'x'.repeat(maxNoteChars + 1)]) {
    assert.throws(
      () => notes.write({ ...base, text }),
      (error: unknown) => error instanceof SangamError && error.code === ErrorCode.InvalidInput,
    )
  }
  assert.equal((memory.db.prepare('SELECT count(*) AS n FROM event').get() as { n: number }).n, 0)
})

test("a note's id comes from the injected randomness", async () => {
  await using memory = memoryFixture()
  const fixed = {
    fraction: () => 0,
    bytes: (count: number) => new Uint8Array(count).fill(0xab),
    uuid: () => '',
  }
  const note = new MemoryNote(memory.db, clock, fixed).write({ ...base, text: 'ids are injected' })
  assert.equal(note.id, `${noteIdPrefix}${'ab'.repeat(12)}`)
})
