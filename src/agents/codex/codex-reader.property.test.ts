import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import fc from 'fast-check'
import { corpusFiles } from '../../../test/helpers/corpus.ts'
import { parseJsonValues } from '../json-values.ts'
import { codexReader } from './codex-reader.ts'
import { isObject } from './codex-record.ts'
import { type CodexState, initialCodexState } from './codex-state.ts'
import { maxBuiltText } from './text.ts'

/** One record of every shape in the corpus (first seen per file), to mutate. */
function sampleRecords(): unknown[] {
  const samples: unknown[] = []
  for (const file of corpusFiles('codex')) {
    const seen = new Set<string>()
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      for (const record of parseJsonValues(line) ?? []) {
        if (!isObject(record)) continue
        const payload = isObject(record.payload) ? record.payload : record
        const itemType = isObject(payload.item) ? payload.item.type : ''
        const key = `${String(record.type)}/${String(payload.type)}/${String(payload.role)}/${String(itemType)}`
        if (seen.has(key) || line.length > 200_000) continue
        seen.add(key)
        samples.push(record)
      }
    }
  }
  return samples
}

const samples = sampleRecords()

/** States the reader is found in: fresh, inside a thread, inside a subagent, inside a copied history. */
function statesToTry(): CodexState[] {
  const meta = {
    timestamp: '2026-11-29T07:54:50.044Z',
    type: 'session_meta',
    payload: { id: '01a2264c-aff5-7b22-ace8-554acdb41e6a', cwd: '/p', cli_version: '0.171.0' },
  }
  const inThread = codexReader.read(initialCodexState, meta).state
  const withCall = codexReader.read(inThread, {
    type: 'response_item',
    payload: { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: 'call_1' },
  }).state
  const replaying = codexReader.read(withCall, {
    ...meta,
    payload: { id: '01a2264c-aff5-7b22-ace8-000000000001', cwd: '/parent', cli_version: '0.170.0' },
  }).state
  assert.equal(replaying.below.length, 1)
  return [
    initialCodexState,
    inThread,
    withCall,
    { ...withCall, subagent: true },
    { ...withCall, forkHistory: true },
    replaying,
  ]
}

const states = statesToTry()

/** Every path into a value, breadth-first, up to a bound (a record can be large). */
function pathsOf(value: unknown): (string | number)[][] {
  const paths: (string | number)[][] = []
  const queue: { node: unknown; path: (string | number)[] }[] = [{ node: value, path: [] }]
  while (queue.length > 0 && paths.length < 300) {
    const { node, path } = queue.shift() ?? { node: null, path: [] }
    const keys: (string | number)[] = Array.isArray(node)
      ? node.map((_, i) => i)
      : isObject(node)
        ? Object.keys(node)
        : []
    for (const key of keys) {
      const child = (node as Record<string | number, unknown>)[key]
      paths.push([...path, key])
      if (path.length < 5) queue.push({ node: child, path: [...path, key] })
    }
  }
  return paths
}

function mutate(record: unknown, path: (string | number)[], replacement: unknown, remove: boolean): unknown {
  const copy: unknown = structuredClone(record)
  if (path.length === 0) return replacement
  let node = copy as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (remove && !Array.isArray(node)) delete node[last]
  else node[last] = replacement
  return copy
}

/** What must hold after any single read, whatever the record. */
function checkStep(state: CodexState, record: unknown): void {
  const step = codexReader.read(state, record)
  const { outcome } = step
  assert.ok(['captured', 'skipped', 'unknown'].includes(outcome.class))
  if (outcome.class === 'captured') assert.ok(outcome.events.length > 0)
  else assert.equal(outcome.events.length, 0)
  if (outcome.class === 'skipped') assert.ok(outcome.reason)
  if (outcome.class === 'unknown') assert.equal(typeof outcome.unknown?.recordType, 'string')
  for (const event of outcome.events) {
    assert.equal(typeof event.text, 'string')
    assert.ok(event.text.length <= maxBuiltText)
    assert.ok(Number.isFinite(event.at))
  }
  const stored = codexReader.serialise(step.state)
  assert.ok(stored.length < 64 * 1024, `state of ${stored.length} characters`)
  assert.deepEqual(codexReader.restore(stored), step.state)
}

const recordArbitrary = fc.constantFrom(...samples)
const stateArbitrary = fc.constantFrom(...states)

test('read never throws on arbitrary JSON values', () => {
  fc.assert(
    fc.property(stateArbitrary, fc.jsonValue({ maxDepth: 4 }), (state, value) => checkStep(state, value)),
    { numRuns: 1500 },
  )
})

test('read never throws on envelopes of known types with arbitrary payloads', () => {
  const value = fc.jsonValue({ maxDepth: 3 })
  const payloadOf = (types: readonly string[], fields: readonly string[]) =>
    fc
      .tuple(fc.constantFrom(...types), fc.dictionary(fc.constantFrom(...fields), value))
      .map(([type, payload]) => ({ ...payload, type }))
  const envelope = fc.record({
    timestamp: fc.oneof(
      fc.string(),
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    ),
    ordinal: fc.nat(),
  })
  const eventPayload = payloadOf(
    [
      'user_message',
      'agent_message',
      'item_completed',
      'exited_review_mode',
      'error',
      'task_started',
      'token_count',
    ],
    ['message', 'item', 'review_output', 'turn_id', 'images'],
  )
  const itemPayload = payloadOf(
    [
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
      'custom_tool_call',
      'custom_tool_call_output',
      'local_shell_call',
      'web_search_call',
      'tool_search_call',
      'tool_search_output',
      'image_generation_call',
      'agent_message',
    ],
    [
      'role',
      'content',
      'summary',
      'encrypted_content',
      'name',
      'namespace',
      'arguments',
      'input',
      'output',
      'call_id',
      'action',
      'tools',
      'internal_chat_message_metadata_passthrough',
    ],
  )
  const otherPayload = fc.dictionary(
    fc.constantFrom(
      'id',
      'session_id',
      'cwd',
      'cli_version',
      'git',
      'source',
      'thread_source',
      'turn_id',
      'message',
      'author',
      'recipient',
      'content',
    ),
    value,
  )
  const record = fc.oneof(
    fc.tuple(envelope, eventPayload).map(([fields, payload]) => ({ ...fields, type: 'event_msg', payload })),
    fc
      .tuple(envelope, itemPayload)
      .map(([fields, payload]) => ({ ...fields, type: 'response_item', payload })),
    fc.tuple(envelope, itemPayload).map(([, payload]) => payload), // a legacy bare item
    fc
      .tuple(
        envelope,
        fc.constantFrom('session_meta', 'turn_context', 'compacted', 'inter_agent_communication'),
        otherPayload,
      )
      .map(([fields, type, payload]) => ({ ...fields, type, payload })),
  )
  fc.assert(
    fc.property(stateArbitrary, record, (state, value) => checkStep(state, value)),
    { numRuns: 4000 },
  )
})

test('read never throws on mutations of real records', () => {
  assert.ok(samples.length > 80, `${samples.length} sampled shapes`)
  const mutation = recordArbitrary.chain((record) => {
    const paths = pathsOf(record)
    return fc.record({
      record: fc.constant(record),
      path: paths.length > 0 ? fc.constantFrom(...paths) : fc.constant<(string | number)[]>([]),
      replacement: fc.jsonValue({ maxDepth: 3 }),
      remove: fc.boolean(),
    })
  })
  fc.assert(
    fc.property(stateArbitrary, mutation, (state, { record, path, replacement, remove }) =>
      checkStep(state, mutate(record, path, replacement, remove)),
    ),
    { numRuns: 3000 },
  )
})
