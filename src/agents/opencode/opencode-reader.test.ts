import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { ReadOutcome } from '../transcript-reader.ts'
import { type OpencodeState, opencodeReader } from './opencode-reader.ts'

const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'opencode')

function readAll(records: readonly unknown[]): { state: OpencodeState; outcomes: ReadOutcome[] } {
  let state = opencodeReader.initialState()
  const outcomes: ReadOutcome[] = []
  for (const record of records) {
    // Every step goes through the stored form, as capture stores the state at each commit.
    state = opencodeReader.restore(opencodeReader.serialise(state))
    const step = opencodeReader.read(state, record)
    state = step.state
    outcomes.push(step.outcome)
  }
  return { state, outcomes }
}

function fixture(name: string): unknown[] {
  return readFileSync(join(fixtures, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown)
}

test('a real opencode 1.18.33 session: the prompt, the tool call and its output, the answer; every line accounted', () => {
  const { state, outcomes } = readAll(fixture('opencode-1.18.33-write.jsonl'))
  const events = outcomes.flatMap((outcome) => outcome.events)
  assert.deepEqual(
    events.map((event) => [event.kind, event.toolName, event.text.slice(0, 40)]),
    [
      ['human', null, '"Write the notes please."'],
      ['tool_call', 'write', 'write {"filePath":"/tmp/oc-probe/run/pro'],
      ['tool_output', 'write', 'Wrote file successfully.'],
      ['assistant', null, 'All done.'],
    ],
  )
  assert.ok(events.every((event) => event.sessionId === 'ses_dbed4a5caffeWqwICXWjyFWVoD'))
  assert.ok(events.every((event) => event.cliVersion === '1.18.33' && event.cwd === '/tmp/oc-probe/run/proj'))
  assert.ok(events.every((event) => event.at > 1_700_000_000_000))
  assert.deepEqual(
    outcomes.map((outcome) => outcome.class + (outcome.reason ? `:${outcome.reason}` : '')),
    [
      'skipped:metadata',
      'skipped:metadata',
      'captured',
      'skipped:metadata',
      'skipped:lifecycle',
      'captured',
      'skipped:lifecycle',
      'skipped:metadata',
      'skipped:metadata',
      'skipped:lifecycle',
      'captured',
      'skipped:lifecycle',
    ],
  )
  assert.deepEqual(opencodeReader.facts(state), {
    sessionId: 'ses_dbed4a5caffeWqwICXWjyFWVoD',
    cliVersion: '1.18.33',
    firstCwd: '/tmp/oc-probe/run/proj',
  })
})

test('a part appended twice (two copiers at once) is read once', () => {
  const records = fixture('opencode-1.18.33-write.jsonl')
  const answer = records.at(-2)
  const { outcomes } = readAll([...records, answer])
  assert.deepEqual(outcomes.at(-1), { class: 'skipped', reason: 'duplicate', events: [] })
})

test("a sub-session's prompt is the parent agent's, a failed tool its error, reasoning thinking, unknown parts reported", () => {
  const { outcomes } = readAll([
    {
      type: 'session',
      session: { id: 'ses_child', parentID: 'ses_parent', directory: '/w', version: '1.2.0' },
    },
    { type: 'message', message: { id: 'msg_1', sessionID: 'ses_child', role: 'user', time: { created: 5 } } },
    { type: 'part', part: { id: 'prt_1', messageID: 'msg_1', type: 'text', text: 'Find the parser.' } },
    { type: 'message', message: { id: 'msg_2', sessionID: 'ses_child', role: 'assistant' } },
    { type: 'part', part: { id: 'prt_2', messageID: 'msg_2', type: 'reasoning', text: 'Look in src.' } },
    {
      type: 'part',
      part: {
        id: 'prt_3',
        messageID: 'msg_2',
        type: 'tool',
        tool: 'edit',
        callID: 'c1',
        state: { status: 'error', input: { filePath: 'a.ts' }, error: 'Error: a.ts is leased to bob' },
      },
    },
    { type: 'part', part: { id: 'prt_4', messageID: 'msg_2', type: 'hologram', beam: 1 } },
    {
      type: 'part',
      part: { id: 'prt_5', messageID: 'msg_1', type: 'text', text: 'file body', synthetic: true },
    },
    'not an object',
  ])
  assert.deepEqual(
    outcomes.flatMap((outcome) => outcome.events.map((event) => [event.kind, event.text])),
    [
      ['system', 'Find the parser.'],
      ['thinking', 'Look in src.'],
      ['tool_call', 'edit {"filePath":"a.ts"}'],
      ['tool_output', 'Error: a.ts is leased to bob'],
    ],
  )
  assert.deepEqual(outcomes[6]?.unknown, { recordType: 'part.hologram', signature: 'beam,id,messageID,type' })
  assert.equal(outcomes[7]?.reason, 'injected')
  assert.equal(outcomes[8]?.class, 'unknown')
})
