import assert from 'node:assert/strict'
import { test } from 'node:test'
import { corpusFiles, readTranscriptFile } from '../../../test/helpers/corpus.ts'
import { fingerprint } from '../text-fingerprint.ts'
import { claudeReader } from './claude-reader.ts'
import {
  initialClaudeState,
  maxQueuedPrompts,
  maxQueuedTextKept,
  maxRememberedTools,
  rememberQueued,
  rememberTool,
  restoreClaudeState,
  takeQueuedEcho,
  toolNameOf,
} from './claude-state.ts'

test('restore accepts an empty object, garbage and non-objects as the initial state', () => {
  for (const json of [
    '{}',
    '',
    'not json',
    'null',
    '42',
    '"s"',
    '[1,2]',
    '{"v":',
    '{"tools":"x","queued":{}}',
  ]) {
    assert.deepEqual(restoreClaudeState(json), initialClaudeState, json)
  }
})

test('restore fills what an older, partial state lacks and drops malformed entries', () => {
  const older = JSON.stringify({
    sessionId: 's1',
    cliVersion: '2.1.80',
    lastAt: 1_700_000_000_000,
    tools: [['toolu_1', 'Bash'], ['toolu_2'], 'x', [3, 'Read']],
    queued: [{ text: 'go', at: 5 }, { text: 1, at: 2 }, null],
  })
  assert.deepEqual(restoreClaudeState(older), {
    ...initialClaudeState,
    sessionId: 's1',
    cliVersion: '2.1.80',
    lastAt: 1_700_000_000_000,
    // An older state's raw tool id is kept as its fingerprint, which still names the tool.
    tools: [[fingerprint('toolu_1'), 'Bash']],
    queued: [{ text: 'go', length: 2, at: 5, captured: true }],
  })
})

test('restore caps oversized lists, keeping the newest entries', () => {
  const tools = Array.from({ length: 2000 }, (_, i) => [`toolu_${i}`, 'Bash'])
  const queued = Array.from({ length: 500 }, (_, i) => ({ text: `p${i}`, at: i }))
  const state = restoreClaudeState(JSON.stringify({ tools, queued }))
  assert.equal(state.tools.length, maxRememberedTools)
  assert.equal(state.tools[0]?.[0], fingerprint(`toolu_${2000 - maxRememberedTools}`))
  assert.equal(toolNameOf(state, `toolu_${2000 - maxRememberedTools}`), 'Bash')
  assert.equal(state.queued.length, maxQueuedPrompts)
  assert.equal(state.queued.at(-1)?.text, 'p499')
})

test('remembered tools and queued prompts stay bounded, oldest dropped first', () => {
  let state = initialClaudeState
  for (let i = 0; i < maxRememberedTools + 10; i++) state = rememberTool(state, `toolu_${i}`, `T${i}`)
  for (let i = 0; i < maxQueuedPrompts + 3; i++) state = rememberQueued(state, `p${i}`, i, true)
  assert.equal(state.tools.length, maxRememberedTools)
  assert.equal(toolNameOf(state, 'toolu_0'), null)
  assert.equal(toolNameOf(state, `toolu_${maxRememberedTools + 9}`), `T${maxRememberedTools + 9}`)
  assert.equal(state.queued.length, maxQueuedPrompts)
  assert.equal(state.queued[0]?.text, 'p3')
})

test('a huge queued prompt is kept as a bounded key, and still matches its echo', () => {
  const pasted = `${'log line\n'.repeat(200_000)}what broke?`
  const state = rememberQueued(initialClaudeState, pasted, 1, true)
  assert.ok(claudeReader.serialise(state).length < 2 * maxQueuedTextKept)
  assert.deepEqual(takeQueuedEcho(state, pasted, 2)?.state.queued, [])
  assert.equal(takeQueuedEcho(state, `${pasted}!`, 2), null)
})

test('implausibly long tool ids are not remembered', () => {
  assert.equal(rememberTool(initialClaudeState, 'x'.repeat(10_000), 'Bash'), initialClaudeState)
})

test('a state is never mutated by a read', () => {
  const before = rememberTool(initialClaudeState, 'toolu_1', 'Bash')
  const frozen = JSON.stringify(before)
  claudeReader.read(before, {
    type: 'assistant',
    sessionId: 's',
    message: { id: 'm', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: {} }] },
  })
  assert.equal(JSON.stringify(before), frozen)
})

test('after a whole corpus file the state is small and survives its serialised form', () => {
  for (const path of corpusFiles('claude')) {
    const { state } = readTranscriptFile(path, claudeReader)
    const json = claudeReader.serialise(state)
    assert.ok(json.length < 64 * 1024, `${path}: ${json.length} bytes`)
    assert.deepEqual(claudeReader.restore(json), state)
  }
})
