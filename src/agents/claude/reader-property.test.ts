import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import fc from 'fast-check'
import { corpusFiles } from '../../../test/helpers/corpus.ts'
import { parseJsonValues } from '../json-values.ts'
import type { ReadOutcome } from '../transcript-reader.ts'
import { type ClaudeState, claudeReader } from './claude-reader.ts'

/** A sample of real records of every type, as the mutations' starting points. */
const realRecords: unknown[] = corpusFiles('claude').flatMap((path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((_, index) => index % 7 === 0)
    .flatMap((line) => parseJsonValues(line) ?? []),
)

const recordTypes = [
  'user',
  'assistant',
  'attachment',
  'system',
  'queue-operation',
  'progress',
  'summary',
  'mystery',
]

/** Checks what every outcome and state must satisfy, whatever went in. */
function assertWellFormed(state: ClaudeState, outcome: ReadOutcome): void {
  assert.ok(['captured', 'skipped', 'unknown'].includes(outcome.class))
  if (outcome.class === 'captured') assert.ok(outcome.events.length > 0)
  if (outcome.class === 'skipped') assert.ok(outcome.reason !== undefined)
  if (outcome.class === 'unknown') assert.equal(typeof outcome.unknown?.recordType, 'string')
  for (const event of outcome.events) {
    assert.equal(typeof event.text, 'string')
    assert.equal(typeof event.sessionId, 'string')
    assert.ok(Number.isFinite(event.at))
  }
  assert.deepEqual(claudeReader.restore(claudeReader.serialise(state)), state)
}

/** Replaces the value at a random path of a record (or deletes it) with arbitrary JSON. */
function mutate(record: unknown, path: readonly number[], replacement: unknown, remove: boolean): unknown {
  const copy = structuredClone(record)
  let node: unknown = copy
  for (const step of path) {
    if (typeof node !== 'object' || node === null) return replacement
    const keys = Object.keys(node)
    if (keys.length === 0) return copy
    const key = keys[step % keys.length] ?? ''
    const child: unknown = Reflect.get(node, key)
    if (typeof child !== 'object' || child === null || step % 3 === 0) {
      if (remove) Reflect.deleteProperty(node, key)
      else Reflect.set(node, key, replacement)
      return copy
    }
    node = child
  }
  return copy
}

/** Reads `values` in order from a fresh state; every step's outcome and state are well formed. */
function readWellFormed(values: readonly unknown[]): void {
  let state = claudeReader.initialState()
  for (const value of values) {
    const step = claudeReader.read(state, value)
    assertWellFormed(step.state, step.outcome)
    state = step.state
  }
}

test('read never throws for arbitrary JSON, and its outcome and state stay well formed', () => {
  fc.assert(fc.property(fc.array(fc.jsonValue({ maxDepth: 5 }), { maxLength: 8 }), readWellFormed), {
    numRuns: 300,
  })
})

test('read never throws for records of known types with arbitrary fields', () => {
  const record = fc.record(
    {
      type: fc.constantFrom(...recordTypes),
      subtype: fc.oneof(fc.constantFrom('compact_boundary', 'local_command', 'api_error'), fc.jsonValue()),
      operation: fc.oneof(fc.constant('enqueue'), fc.jsonValue()),
      content: fc.jsonValue({ maxDepth: 3 }),
      message: fc.oneof(
        fc.record({ id: fc.jsonValue(), content: fc.jsonValue({ maxDepth: 4 }), model: fc.jsonValue() }),
        fc.jsonValue(),
      ),
      attachment: fc.oneof(
        fc.record({
          type: fc.constantFrom(
            'queued_command',
            'hook_success',
            'hook_blocking_error',
            'skill_listing',
            'x',
          ),
          prompt: fc.jsonValue(),
          content: fc.jsonValue(),
          blockingError: fc.jsonValue(),
          commandMode: fc.jsonValue(),
          origin: fc.jsonValue(),
        }),
        fc.jsonValue(),
      ),
      data: fc.jsonValue(),
      timestamp: fc.oneof(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        fc.jsonValue(),
      ),
      sessionId: fc.jsonValue(),
      cwd: fc.jsonValue(),
      gitBranch: fc.jsonValue(),
      isMeta: fc.jsonValue(),
      isSidechain: fc.jsonValue(),
      isCompactSummary: fc.jsonValue(),
      origin: fc.jsonValue(),
    },
    { requiredKeys: ['type'] },
  )
  fc.assert(fc.property(fc.array(record, { maxLength: 6 }), readWellFormed), { numRuns: 400 })
})

test('read never throws for real records with a field replaced or removed', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...realRecords),
      fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
      fc.jsonValue({ maxDepth: 3 }),
      fc.boolean(),
      (record, path, replacement, remove) => {
        const step = claudeReader.read(claudeReader.initialState(), mutate(record, path, replacement, remove))
        assertWellFormed(step.state, step.outcome)
      },
    ),
    { numRuns: 1000 },
  )
})

test('restore never throws and always yields a usable state', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.json(),
        fc.jsonValue().map((value) => JSON.stringify({ tools: value })),
      ),
      (json) => {
        const state = claudeReader.restore(json)
        const step = claudeReader.read(state, { type: 'user', message: { content: 'hi' } })
        assertWellFormed(step.state, step.outcome)
      },
    ),
  )
})
