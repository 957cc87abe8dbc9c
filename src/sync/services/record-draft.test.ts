import assert from 'node:assert/strict'
import { test } from 'node:test'
import { samples } from '../../../test/helpers/secret-samples.ts'
import type { StoredEvent } from '../../memory/store/event-table.ts'
import { eventRecordDraftSchema } from '../protocol/record.ts'
import { eventDraft } from './record-draft.ts'

function stored(fields: Partial<StoredEvent> = {}): StoredEvent {
  return {
    seq: 7,
    id: 'ev_0123456789abcdef01234567',
    kind: 'human',
    vendor: 'claude',
    cliVersion: '2.1.80',
    sessionId: 'sess-1',
    author: 'alice@x.dev',
    cwd: '/home/alice/widget',
    branch: 'main',
    at: '2026-11-29T10:00:00.000Z',
    sourcePath: '/home/alice/.claude/projects/-w/sess-1.jsonl',
    byteOffset: 120,
    part: 0,
    toolName: null,
    callId: null,
    text: 'fix the exporter',
    fullSize: 16,
    shareable: true,
    ...fields,
  }
}

test('a record carries the event under its own id, without local columns, and passes the wire schema', () => {
  const { draft, bytes } = eventDraft(stored(), 1_000_000)
  assert.equal(draft.id, 'ev_0123456789abcdef01234567')
  assert.deepEqual(draft.actor, { human: 'alice@x.dev', vendor: 'claude', sessionId: 'sess-1' })
  assert.equal('seq' in draft.payload, false)
  assert.equal(bytes, Buffer.byteLength(JSON.stringify(draft)))
  assert.ok(eventRecordDraftSchema.safeParse(draft).success)
})

test('text is scrubbed again before it leaves the machine', () => {
  const leaked = `deploy with ${samples.anthropic} please`
  const { draft } = eventDraft(stored({ text: leaked, cwd: `/tmp/${samples.anthropic}` }), 1_000_000)
  assert.ok(!JSON.stringify(draft).includes(samples.anthropic))
})

test("a note is the human's (and its session's, when an agent wrote it)", () => {
  const note = stored({ id: 'note_00ff', kind: 'note', vendor: 'sangam', sessionId: 'cli', sourcePath: null })
  assert.deepEqual(eventDraft(note, 1_000_000).draft.actor, {
    human: 'alice@x.dev',
    vendor: null,
    sessionId: null,
  })
  const fromAgent = { ...note, sessionId: 'sess-9' }
  assert.equal(eventDraft(fromAgent, 1_000_000).draft.actor.sessionId, 'sess-9')
})

test('a record larger than the budget has its text cut to fit; fullSize keeps the original length', () => {
  const text = `${'log line with ünïcödé and "quotes"\n'.repeat(40_000)}🙂`
  const { draft, bytes } = eventDraft(stored({ text, fullSize: text.length }), 64 * 1024)
  assert.ok(bytes <= 64 * 1024, `${bytes} bytes`)
  assert.ok(draft.payload.text.length > 30_000, 'most of the budget is used')
  assert.ok(text.startsWith(draft.payload.text))
  assert.equal(draft.payload.fullSize, text.length)
  assert.ok(eventRecordDraftSchema.safeParse(draft).success)
})
