import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { ReadOutcome } from '../transcript-reader.ts'
import { geminiReader } from './gemini-reader.ts'
import { type GeminiState, initialGeminiState } from './gemini-state.ts'

const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'gemini')

/** Reads records as capture does, the state round-tripping through its serialised form. */
function readAll(records: readonly unknown[], from: GeminiState = initialGeminiState) {
  let state = from
  const outcomes: ReadOutcome[] = []
  for (const record of records) {
    const step = geminiReader.read(geminiReader.restore(geminiReader.serialise(state)), record)
    state = step.state
    outcomes.push(step.outcome)
  }
  const events = outcomes.flatMap((outcome) => outcome.events)
  return { state, outcomes, events }
}

function fixture(name: string): unknown[] {
  return readFileSync(join(fixtures, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown)
}

test('a real Gemini CLI 0.61.0 session, resumed once, is captured word for word and each thing once', () => {
  const run = readAll(fixture('session-0.61.0-write-shell-resume.jsonl'))
  assert.deepEqual(
    run.events.map((event) => [event.kind, event.toolName, event.text.slice(0, 40)]),
    [
      ['human', null, 'Set a to 2 in a.ts please.'],
      ['tool_call', 'write_file', 'write_file {"file_path":"/tmp/gemprobe/r'],
      ['tool_output', 'write_file', 'Successfully overwrote file: /tmp/gempro'],
      ['tool_call', 'run_shell_command', 'run_shell_command {"command":"echo hi"}'],
      ['tool_output', 'run_shell_command', '<untrusted_context>\nOutput: hi\nProcess G'],
      ['assistant', null, 'Set a to 2 and ran echo.'],
      ['human', null, 'What does a.ts say now?'],
      ['assistant', null, 'The file now says a = 2.'],
    ],
  )
  assert.ok(run.events.every((event) => event.sessionId === '18c7418e-17fc-4cfc-bb09-7db97fed3bb0'))
  const [call, output] = [run.events[1], run.events[2]]
  assert.equal(call?.callId, output?.callId, 'the output is paired with its call')
  assert.equal(run.events[0]?.at, Date.parse('2026-12-04T13:15:10.269Z'))
  assert.deepEqual(
    run.outcomes.filter((outcome) => outcome.class !== 'captured' && outcome.class !== 'skipped'),
    [],
    'every line is understood',
  )
})

test("the brief and room messages hooks added, and the CLI's session context, are not the human's words", () => {
  const run = readAll(fixture('session-0.61.0-denied-write.jsonl'))
  const human = run.events.filter((event) => event.kind === 'human').map((event) => event.text)
  assert.deepEqual(human, ['Set a to 2 in a.ts please.'])
  assert.equal(run.outcomes[1]?.class, 'skipped', 'the opening checkpoint holds only the session context')
  assert.equal(run.outcomes[1]?.reason, 'injected')
  const denied = run.events.find((event) => event.kind === 'tool_output' && event.toolName === 'write_file')
  assert.equal(denied?.text, 'Tool execution blocked: leased to bob')
})

test('a copy of a message that grew yields only what is new; a checkpoint repeats nothing', () => {
  const meta = { sessionId: 's1', projectHash: 'h', startTime: '2026-01-01T00:00:00.000Z', kind: 'main' }
  const user = {
    id: 'u1',
    timestamp: '2026-01-01T00:00:01.000Z',
    type: 'user',
    content: [{ text: 'fix it' }],
  }
  const first = { id: 'g1', timestamp: '2026-01-01T00:00:02.000Z', type: 'gemini', content: '', thoughts: [] }
  const withThought = {
    ...first,
    thoughts: [{ subject: 'Plan', description: 'read first', timestamp: '2026-01-01T00:00:02.500Z' }],
  }
  const call = {
    id: 'c1',
    name: 'read_file',
    args: { file_path: 'a.ts' },
    status: 'scheduled',
    timestamp: '2026-01-01T00:00:03.000Z',
  }
  const withCall = { ...withThought, toolCalls: [call] }
  const result = [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'const a = 1' } } }]
  const done = { ...withThought, toolCalls: [{ ...call, status: 'success', result }] }
  const response = { id: 'u2', timestamp: '2026-01-01T00:00:04.000Z', type: 'user', content: result }
  const run = readAll([
    meta,
    user,
    first,
    withThought,
    withCall,
    done,
    response,
    { $set: { messages: [user, done, response] } },
    { $rewindTo: 'u2' },
  ])
  assert.deepEqual(
    run.events.map((event) => [event.kind, event.text]),
    [
      ['human', 'fix it'],
      ['thinking', 'Plan\nread first'],
      ['tool_call', 'read_file {"file_path":"a.ts"}'],
      ['tool_output', 'const a = 1'],
    ],
  )
  assert.deepEqual(
    run.outcomes.map((outcome) => outcome.reason ?? outcome.class),
    [
      'metadata',
      'captured',
      'empty',
      'captured',
      'captured',
      'captured',
      'duplicate',
      'duplicate',
      'lifecycle',
    ],
  )
})

test('an unknown record or message type is reported with its shape, never dropped silently', () => {
  const run = readAll([{ hello: 1 }, { id: 'x', type: 'plan', content: [] }, 7])
  assert.deepEqual(
    run.outcomes.map((outcome) => [outcome.class, outcome.unknown?.recordType]),
    [
      ['unknown', 'record'],
      ['unknown', 'message/plan'],
      ['unknown', '(number)'],
    ],
  )
})
