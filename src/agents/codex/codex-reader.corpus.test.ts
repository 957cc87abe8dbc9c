import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { test } from 'node:test'
import { corpusFiles, readTranscriptFile } from '../../../test/helpers/corpus.ts'
import type { ReadEvent } from '../transcript-reader.ts'
import { codexReader } from './codex-reader.ts'
import { maxBuiltText } from './text.ts'

const files = corpusFiles('codex')
const read = (name: string) => readTranscriptFile(pathOf(name), codexReader)

function pathOf(name: string): string {
  const path = files.find((file) => basename(file) === name)
  assert.ok(path, `${name} is in the corpus`)
  return path
}

function countKinds(events: readonly ReadEvent[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const event of events) counts[event.kind] = (counts[event.kind] ?? 0) + 1
  return counts
}

const encryptedIn = (result: ReturnType<typeof read>) =>
  result.lines.reduce(
    (sum, line) => sum + line.outcomes.reduce((n, o) => n + (o.encryptedReasoning ?? 0), 0),
    0,
  )

/** Text that only the harness writes; it must never be attributed to the person. */
const injectedMarkers = [
  '<environment_context>',
  '<user_instructions>',
  'AGENTS.md instructions',
  '<INSTRUCTIONS>',
  '<permissions instructions>',
  '<skills_instructions>',
  '<collaboration_mode>',
  '<recommended_plugins>',
  '<turn_aborted>',
  '<subagent_notification>',
  '<image name=',
  '# Context from my IDE setup:',
  '# Files mentioned by the user:',
  '## My request for Codex:',
]

test('the corpus holds every Codex era, from legacy to 0.171', () => {
  assert.ok(files.length >= 17, `found ${files.length} files`)
  assert.ok(files.some((file) => file.includes('AcidicSoil')))
  assert.ok(files.some((file) => file.includes('codex-0.171.0')))
})

for (const file of files) {
  const name = basename(file)

  test(`${name}: every non-blank line is accounted for exactly once`, () => {
    const nonBlank = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '').length
    const result = readTranscriptFile(file, codexReader)
    assert.equal(result.lines.length, nonBlank)
    for (const line of result.lines) {
      const where = `${name}:${line.lineNo}`
      assert.notEqual(line.outcome.class, 'unparseable', where)
      if (line.outcome.class === 'captured') assert.ok(line.events.length > 0, where)
      else assert.equal(line.events.length, 0, where)
      if (line.outcome.class === 'skipped')
        assert.ok(line.outcome.reason, `${where} is skipped with a reason`)
    }
  })

  test(`${name}: no record shape is unknown`, () => {
    const unknown = readTranscriptFile(file, codexReader)
      .lines.flatMap((line) =>
        line.outcomes.map((outcome) => ({ line: line.lineNo, shape: outcome.unknown })),
      )
      .filter((entry) => entry.shape !== undefined)
    assert.deepEqual(unknown, [])
  })

  test(`${name}: human events are the person's words only, each once per turn`, () => {
    const { events } = readTranscriptFile(file, codexReader)
    const humans = events.filter((event) => event.kind === 'human')
    for (const human of humans) {
      for (const marker of injectedMarkers)
        assert.ok(!human.text.includes(marker), `${marker} in ${human.text}`)
      assert.ok(human.text.trim() !== '')
    }
    // Within a turn the person speaks first and the agent answers: two equal human texts with no
    // assistant or tool event between them would be one message captured twice.
    let previous: string | null = null
    for (const event of events) {
      if (event.kind === 'human') {
        assert.notEqual(event.text, previous, `${event.text} captured twice in one turn`)
        previous = event.text
      } else if (event.kind !== 'system') previous = null
    }
  })

  test(`${name}: every event carries the file's own session (or the replayed parent's), a version and a time`, () => {
    const { events, state } = readTranscriptFile(file, codexReader)
    const facts = codexReader.facts(state)
    assert.ok(facts.sessionId, 'a session id')
    assert.ok(facts.firstCwd, 'a first cwd')
    const threads = sessionMetaIds(file)
    for (const event of events) {
      assert.ok(
        event.sessionId === facts.sessionId || threads.has(event.sessionId),
        `session ${event.sessionId}`,
      )
      assert.ok(Number.isFinite(event.at) && event.at > 0)
      assert.ok(event.text.length <= maxBuiltText)
    }
  })
}

test('0.171 exec hooks-deny: the prompt, the denied patch, the shell run, the answer and the hook context', () => {
  const { events, state } = read('agentlab__codex-0.171.0__exec__hooks-deny.jsonl')
  const humans = events.filter((event) => event.kind === 'human')
  assert.deepEqual(
    humans.map((event) => event.text),
    ['Create notes.txt, then run a shell command.'],
  )
  const patches = events.filter((event) => event.kind === 'tool_call' && event.toolName === 'apply_patch')
  assert.equal(patches.length, 1)
  assert.match(patches[0]?.text ?? '', /\*\*\* Add File: notes\.txt/)
  const denial = events.find(
    (event) => event.kind === 'tool_output' && event.text.includes('Command blocked by PreToolUse hook'),
  )
  assert.ok(denial, 'the PreToolUse denial is searchable')
  assert.equal(denial.toolName, 'apply_patch')
  assert.equal(denial.callId, patches[0]?.callId)
  assert.equal(events.filter((event) => event.kind === 'assistant').length, 1)
  const system = events.filter((event) => event.kind === 'system')
  assert.deepEqual(
    system.map((event) => event.text),
    ['AGENTLAB-SESSIONSTART-MARKER-7f3a: context injected by SessionStart hook'],
  )
  assert.deepEqual(countKinds(events), { system: 1, human: 1, tool_call: 2, tool_output: 2, assistant: 1 })
  assert.deepEqual(codexReader.facts(state), {
    sessionId: '01a2264c-aff5-7b22-ace8-554acdb41e6a',
    cliVersion: '0.171.0',
    firstCwd: '/tmp/agentlab/runs-final/codex-hooks/proj',
  })
  assert.equal(humans[0]?.branch, 'master')
  assert.equal(humans[0]?.at, Date.parse('2026-11-29T07:54:50.458Z'))
})

test('0.171 TUI hooks-deny: the prompt written as response item and item_completed is captured once', () => {
  const { events } = read('agentlab__codex-0.171.0__tui__hooks-deny.jsonl')
  assert.deepEqual(
    events.filter((event) => event.kind === 'human').map((event) => event.text),
    ['Create notes.txt, then run a shell command.'],
  )
  assert.equal(events.filter((event) => event.kind === 'assistant').length, 1)
})

test('legacy CRLF rollout: the question is human; AGENTS.md and the environment are not', () => {
  const result = read('AcidicSoil__codex-session-viewer__example.jsonl')
  const humans = result.events.filter((event) => event.kind === 'human')
  assert.equal(
    humans[0]?.text,
    "What's the next task I should work on? Please consider dependencies and priorities.",
  )
  assert.ok(humans.every((event) => !event.text.includes('<user_instructions>')))
  assert.ok(humans.every((event) => !event.text.includes('<environment_context>')))
  // Lines 3 and 4 carry the injected AGENTS.md and environment blocks.
  assert.deepEqual(
    result.lines.filter((line) => line.lineNo === 3 || line.lineNo === 4).map((line) => line.outcome),
    [
      { class: 'skipped', reason: 'injected' },
      { class: 'skipped', reason: 'injected' },
    ],
  )
  // The person sent the same path four times in four turns: four messages, not one.
  assert.equal(humans.filter((event) => event.text === 'test-logs/build-error.txt').length, 4)
  assert.deepEqual(codexReader.facts(result.state), {
    sessionId: 'cf4def41-21e0-4b91-adb4-5397c1492084',
    cliVersion: null,
    firstCwd: '/home/user/projects/codex-session-viewer',
  })
  assert.equal(humans[0]?.branch, 'main')
  assert.ok(result.events.every((event) => event.at === Date.parse('2025-09-10T18:58:38.331Z')))
  assert.deepEqual(countKinds(result.events), {
    human: 45,
    thinking: 110,
    assistant: 59,
    tool_call: 246,
    // Three commands printed nothing (`{"output":"","metadata":…}`): those outputs are skipped empty.
    tool_output: 243,
  })
  assert.equal(encryptedIn(result), 33)
})

test('0.40 VS Code rollout: only the request after the IDE context is human; reasoning summaries are thinking', () => {
  const result = read(
    'jnarowski__agentcmd__rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl',
  )
  const humans = result.events.filter((event) => event.kind === 'human')
  assert.equal(humans.length, 1)
  assert.match(humans[0]?.text ?? '', /^Evaluate @packages\/services and create a new/)
  assert.deepEqual(countKinds(result.events), {
    human: 1,
    thinking: 32,
    tool_call: 34,
    tool_output: 33, // one command printed nothing
    assistant: 1,
  })
  assert.equal(encryptedIn(result), 1)
  // ≤0.7x wrapped shell output as JSON in a string: the text is unwrapped.
  const output = result.events.find((event) => event.kind === 'tool_output')
  assert.ok(output && !output.text.startsWith('{"output"'))
  assert.equal(output.toolName, 'shell')
})

test('0.145 desktop rollout: diff comments are system, the request after them is human', () => {
  const result = read('entireio__entire-graph__b2_d2a005254a_0_full.jsonl')
  const line = result.lines.find((entry) => entry.lineNo === 387)
  assert.deepEqual(
    line?.events.map((event) => [event.kind, event.text.slice(0, 16)]),
    [
      ['human', 'Fix all those'],
      ['system', '# Diff comments:'],
    ],
  )
  assert.deepEqual(result.lines.find((entry) => entry.lineNo === 388)?.outcome, {
    class: 'skipped',
    reason: 'duplicate',
  })
  assert.deepEqual(countKinds(result.events), {
    human: 3,
    thinking: 60,
    assistant: 16,
    tool_call: 109,
    tool_output: 109,
    system: 1,
  })
  assert.equal(encryptedIn(result), 63)
})

test('desktop image attachment: the image markers and file list are not part of the request', () => {
  const { events } = read('entireio__git-sync__c1_4891f1b44a_1_full.jsonl')
  assert.equal(
    events.find((event) => event.kind === 'human')?.text,
    'can you add this image to the top of the repo please  then create a branch and make a commit',
  )
})

test('an interrupted turn leaves its notice as system', () => {
  const { events } = read('entireio__git-sync__79_aa4e9d44f3_4_full.jsonl')
  const notices = events.filter((event) => event.kind === 'system')
  assert.equal(notices.length, 1)
  assert.match(notices[0]?.text ?? '', /^<turn_aborted>/)
})

test('a resumed thread (session_meta again, same id) goes on being captured', () => {
  const result = read('entireio__entire-graph__ac_73f2f16ee1_0_full.jsonl')
  assert.deepEqual(result.lines.find((line) => line.lineNo === 97)?.outcome, {
    class: 'skipped',
    reason: 'metadata',
  })
  assert.ok(result.lines.every((line) => line.outcome.reason !== 'fork-history'))
  assert.deepEqual(
    result.events.filter((event) => event.kind === 'human').map((event) => event.text),
    [
      'Update the README file, reflecting the feature additions in this branch.',
      'Summarize your work, then commit/push',
    ],
  )
})

test("COMPOSITE 0.146: a second session_meta starts the parent's history, read as the parent's thread", () => {
  const result = read('jazzyalex__agent-sessions__stage0_codex_small__COMPOSITE.jsonl')
  const own = '019fc8be-3658-7ca3-9e29-000000000000'
  assert.ok(result.lines.every((line) => line.outcome.reason !== 'fork-history'))
  // Line 29 is the parent's session_meta; the copy runs until the thread's own turn starts (97).
  const replayed = result.lines.filter((line) => line.events.some((event) => event.sessionId !== own))
  assert.ok(replayed.length > 0)
  assert.ok(replayed.every((line) => line.lineNo > 29 && line.lineNo < 97))
  for (const lineNo of [71, 85]) {
    const events = result.lines.find((line) => line.lineNo === lineNo)?.events ?? []
    assert.deepEqual(
      events.map((event) => [event.sessionId, event.text]),
      [['[trimmed for fixture]', '[trimmed for fixture]']],
      `parent prompt on ${lineNo}`,
    )
  }
  assert.deepEqual(
    result.events
      .filter((event) => event.kind === 'human' && event.sessionId === own)
      .map((event) => event.text),
    ['List the files', '[trimmed for fixture]'],
  )
  assert.equal(codexReader.facts(result.state).sessionId, own)
})

/** The thread ids of a rollout's `session_meta` lines: its own, and those of histories it copied. */
function sessionMetaIds(file: string): Set<string> {
  const ids = new Set<string>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"session_meta"')) continue
    const record = JSON.parse(line) as { type?: string; payload?: { id?: string; session_id?: string } }
    const id = record.payload?.id ?? record.payload?.session_id
    if (record.type === 'session_meta' && id !== undefined) ids.add(id)
  }
  return ids
}
