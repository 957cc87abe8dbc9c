import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { PresenceEntry } from '../../src/sync/protocol/presence.ts'
import { presencePage } from '../src/presence-page.ts'

const entry = (human: string): PresenceEntry => ({
  actor: { human, vendor: null, sessionId: null },
  connections: 0,
  online: false,
  lastActiveAt: '2026-11-01T10:00:00.000Z',
})

test('a page keeps the first entries that fit, as one JSON array, and counts the rest', () => {
  const entries = Array.from({ length: 10 }, (_, index) => entry(`dev-${index}@example.dev`))
  const page = presencePage(entries, { maxEntries: 4, maxChars: 100_000 })
  assert.deepEqual(page.presence, entries.slice(0, 4))
  assert.deepEqual(JSON.parse(page.json), entries.slice(0, 4))
  assert.equal(page.omitted, 6)
})

test('an entry too long for the page is left out, not everything after it', () => {
  const entries = [entry('a@x.dev'), entry('h'.repeat(5000)), entry('b@x.dev')]
  const page = presencePage(entries, { maxEntries: 10, maxChars: 1000 })
  assert.deepEqual(
    page.presence.map((kept) => kept.actor.human),
    ['a@x.dev', 'b@x.dev'],
  )
  assert.equal(page.omitted, 1)
  assert.ok(page.json.length <= 1000)
})
