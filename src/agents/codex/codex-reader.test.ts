import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fingerprint } from '../text-fingerprint.ts'
import type { ReadEvent, ReadOutcome } from '../transcript-reader.ts'
import { codexReader } from './codex-reader.ts'
import { type CodexState, initialCodexState, maxCalls } from './codex-state.ts'
import { maxBuiltText } from './text.ts'

const threadId = '019d7e3d-0164-79d1-af76-e4ee6689b94f'
let clock = Date.parse('2026-04-11T20:30:21.000Z')

function line(type: string, payload: Record<string, unknown>): Record<string, unknown> {
  clock += 1000
  return { timestamp: new Date(clock).toISOString(), type, payload }
}
const meta = (id: string, extra: Record<string, unknown> = {}) =>
  line('session_meta', { id, cwd: '/work/app', cli_version: '0.125.0', git: { branch: 'main' }, ...extra })
const event = (type: string, fields: Record<string, unknown> = {}) => line('event_msg', { type, ...fields })
const item = (type: string, fields: Record<string, unknown> = {}) =>
  line('response_item', { type, ...fields })
const userItem = (...texts: string[]) =>
  item('message', { role: 'user', content: texts.map((text) => ({ type: 'input_text', text })) })
const userEvent = (message: string) => event('user_message', { message, images: [], local_images: [] })

/** Reads records as capture does, the state round-tripping through its serialised form. */
function readAll(records: readonly unknown[], from: CodexState = initialCodexState) {
  let state = from
  const outcomes: ReadOutcome[] = []
  for (const record of records) {
    const step = codexReader.read(codexReader.restore(codexReader.serialise(state)), record)
    state = step.state
    outcomes.push(step.outcome)
  }
  const events: ReadEvent[] = outcomes.flatMap((outcome) => outcome.events)
  return {
    state,
    outcomes,
    events,
    texts: (kind: string) => events.filter((e) => e.kind === kind).map((e) => e.text),
  }
}

test('an IDE request is captured once, without its context, from whichever copy comes first', () => {
  const wrapped =
    '# Context from my IDE setup:\n\n## Active file: src/app.ts\n\n## Open tabs:\n- app.ts\n\n## My request for Codex:\nfix the null check in app.ts\n'
  const run = readAll([meta(threadId), userEvent(wrapped), userItem(wrapped)])
  assert.deepEqual(run.texts('human'), ['fix the null check in app.ts'])
  assert.deepEqual(run.outcomes[2], { class: 'skipped', reason: 'duplicate', events: [] })
})

test("a /review preset prompt is the person's command, findable as human, as are custom review instructions", () => {
  const run = readAll([
    meta(threadId),
    userEvent(
      'Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.',
    ),
    event('entered_review_mode', {
      target: { type: 'uncommittedChanges' },
      user_facing_hint: 'current changes',
    }),
    userEvent(
      "Review the code changes against the base branch 'main'. The merge base commit for this comparison is abc. Run `git diff abc` to inspect the changes relative to main. Provide prioritized, actionable findings.",
    ),
    userEvent('check the error handling in the lease code only'),
    event('exited_review_mode', {
      review_output: {
        findings: [
          {
            title: '[P1] Lease expiry ignores clock skew',
            body: 'The comparison uses local time.',
            code_location: { absolute_file_path: '/work/app/lease.ts', line_range: { start: 10, end: 12 } },
          },
        ],
        overall_correctness: 'patch is incorrect',
        overall_explanation: 'One bug.',
      },
    }),
  ])
  assert.deepEqual(run.texts('human'), [
    'Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.',
    "Review the code changes against the base branch 'main'. The merge base commit for this comparison is abc. Run `git diff abc` to inspect the changes relative to main. Provide prioritized, actionable findings.",
    'check the error handling in the lease code only',
  ])
  assert.deepEqual(run.texts('system'), [
    'patch is incorrect\n\nOne bug.\n\n[P1] Lease expiry ignores clock skew\n/work/app/lease.ts:10-12\nThe comparison uses local time.',
  ])
})

test("in a subagent's thread the user messages are the parent agent's task, captured as system", () => {
  for (const extra of [
    { source: { subagent: { thread_spawn: { parent_thread_id: 'p', depth: 1 } } } },
    { source: 'exec', thread_source: 'subagent' },
    { source: { subagent: 'review' } },
  ]) {
    const run = readAll([
      meta(threadId, extra),
      userItem('Map the lease code paths.'),
      userEvent('Map the lease code paths.'),
    ])
    assert.deepEqual(run.texts('human'), [], JSON.stringify(extra))
    assert.deepEqual(run.texts('system'), ['Map the lease code paths.'])
  }
})

test('a word typed again in a later turn is a new message', () => {
  const run = readAll([
    meta(threadId),
    userItem('proceed'),
    userEvent('proceed'),
    item('message', { role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }),
    event('agent_message', { message: 'Done.' }),
    userItem('proceed'),
    userEvent('proceed'),
    event('agent_message', { message: 'Done.' }),
    item('message', { role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }),
  ])
  assert.deepEqual(run.texts('human'), ['proceed', 'proceed'])
  assert.deepEqual(run.texts('assistant'), ['Done.', 'Done.'])
})

test('a prompt the person wrapped in a tag is kept from its user_message copy', () => {
  const run = readAll([
    meta(threadId),
    userItem('<note>keep the old API</note>'),
    userEvent('<note>keep the old API</note>'),
  ])
  assert.deepEqual(run.texts('human'), ['<note>keep the old API</note>'])
  assert.deepEqual(
    run.outcomes.slice(1).map((outcome) => outcome.reason ?? outcome.class),
    ['injected', 'captured'],
  )
})

test('the newest history mode writes the prompt only as an item: it is still captured', () => {
  const run = readAll([
    meta(threadId),
    event('item_completed', {
      item: { type: 'UserMessage', content: [{ type: 'text', text: 'rename the flag' }] },
    }),
    event('item_completed', {
      item: { type: 'AgentMessage', content: [{ type: 'Text', text: 'Renamed.' }] },
    }),
  ])
  assert.deepEqual(run.texts('human'), ['rename the flag'])
  assert.deepEqual(run.texts('assistant'), ['Renamed.'])
})

test("a spawned thread reads the parent's copied history as the parent's, up to its own first turn", () => {
  const parentId = '019d7d08-46c9-7f73-affe-4e6ca9852d56'
  const ownTurn = '019d7e3d-018b-70c0-afd0-371649720dbc'
  const run = readAll([
    meta(threadId, {
      forked_from_id: parentId,
      source: { subagent: { thread_spawn: { parent_thread_id: parentId } } },
    }),
    meta(parentId, { cwd: '/elsewhere' }),
    line('turn_context', { turn_id: '019d7d08-f1d2-78a1-ae52-df8e21f9b394', cwd: '/elsewhere' }),
    event('task_started', { turn_id: '019d7d08-f1d2-78a1-ae52-df8e21f9b394' }),
    userItem('review the repo'),
    userEvent('review the repo'),
    item('function_call', { name: 'spawn_agent', arguments: '{}', call_id: 'call_1' }),
    event('task_started', { turn_id: ownTurn }),
    line('turn_context', { turn_id: ownTurn, cwd: '/work/app' }),
    userItem('Review commit d9d38ab.'),
    item('message', { role: 'assistant', content: [{ type: 'output_text', text: 'No findings.' }] }),
  ])
  assert.ok(run.outcomes.every((outcome) => outcome.reason !== 'fork-history'))
  // The parent's prompt is the person's (the parent is not a subagent), in the parent's session.
  assert.deepEqual(
    run.events.map((e) => [e.kind, e.sessionId, e.cwd, e.text]),
    [
      ['human', parentId, '/elsewhere', 'review the repo'],
      ['tool_call', parentId, '/elsewhere', 'spawn_agent {}'],
      ['system', threadId, '/work/app', 'Review commit d9d38ab.'],
      ['assistant', threadId, '/work/app', 'No findings.'],
    ],
  )
  assert.deepEqual(codexReader.facts(run.state), {
    sessionId: threadId,
    cliVersion: '0.125.0',
    firstCwd: '/work/app',
  })
})

test('a resume (the same id again) continues the session and ends a copied history', () => {
  const run = readAll([
    meta(threadId),
    userEvent('first'),
    meta('another-thread'),
    userEvent('copied'),
    meta(threadId, { cli_version: '0.126.0' }),
    userEvent('after resume'),
  ])
  assert.deepEqual(
    run.events.map((e) => [e.sessionId, e.text]),
    [
      [threadId, 'first'],
      ['another-thread', 'copied'],
      [threadId, 'after resume'],
    ],
  )
  assert.equal(run.events.at(-1)?.cliVersion, '0.126.0')
  assert.equal(codexReader.facts(run.state).sessionId, threadId)
})

test('a copy inside a copy (a fork of a fork) is read as each ancestor, and each turn goes to the newest thread that predates it', () => {
  const parent = '019d7d08-46c9-7f73-affe-4e6ca9852d56'
  const grandparent = '019d7c00-0000-7000-8000-000000000001'
  const run = readAll([
    meta(threadId),
    meta(parent),
    meta(grandparent),
    event('task_started', { turn_id: '019d7c10-0000-7000-8000-000000000000' }),
    userEvent('grandparent words'),
    event('task_started', { turn_id: '019d7d10-0000-7000-8000-000000000000' }),
    userEvent('parent words'),
    event('task_started', { turn_id: '019d7e40-0000-7000-8000-000000000000' }),
    userEvent('own words'),
  ])
  assert.deepEqual(
    run.events.map((e) => [e.sessionId, e.text]),
    [
      [grandparent, 'grandparent words'],
      [parent, 'parent words'],
      [threadId, 'own words'],
    ],
  )
  assert.equal(run.state.below.length, 0)
})

test('a record type nobody knows is unknown, with its type and shape', () => {
  const run = readAll([
    meta(threadId),
    { timestamp: '2026-04-11T20:31:00Z', type: 'event_msg', payload: { type: 'foo', bar: 1 } },
    { timestamp: '2026-04-11T20:31:00Z', type: 'response_item', payload: { type: 'bar', zed: [] } },
    { timestamp: '2026-04-11T20:31:00Z', type: 'baz', payload: {} },
    { type: 'event_msg', payload: { type: 'item_completed', item: { type: 'Widget', size: 2 } } },
    { type: 'response_item', payload: { type: 'message', role: 'narrator', content: [] } },
  ])
  assert.deepEqual(
    run.outcomes.slice(1).map((outcome) => [outcome.class, outcome.unknown]),
    [
      ['unknown', { recordType: 'event_msg/foo', signature: 'payload,timestamp,type;payload:bar,type' }],
      ['unknown', { recordType: 'response_item/bar', signature: 'payload,timestamp,type;payload:type,zed' }],
      ['unknown', { recordType: 'baz', signature: 'payload,timestamp,type;payload:' }],
      [
        'unknown',
        {
          recordType: 'event_msg/item_completed/Widget',
          signature: 'payload,type;payload:item,type;item:size,type',
        },
      ],
      [
        'unknown',
        { recordType: 'response_item/message', signature: 'payload,type;payload:content,role,type' },
      ],
    ],
  )
})

test('garbage values are unknown or skipped, never thrown, and leave the state usable', () => {
  const garbage: unknown[] = [
    null,
    42,
    'a string',
    [],
    [1, 2],
    {},
    { type: 5 },
    { type: 'response_item', payload: 'not an object' },
    { type: 'response_item', payload: { type: 'message', role: 'user', content: 'not an array' } },
    { type: 'response_item', payload: { type: 'function_call_output', call_id: 7, output: { deep: [{}] } } },
    { type: 'event_msg', payload: { type: 'user_message', message: ['x'] } },
    { type: 'session_meta', payload: { id: 12, cwd: {}, git: 'main' } },
    { type: 'turn_context', payload: { cwd: null } },
    { timestamp: 'yesterday', type: 'compacted', payload: { message: 3, replacement_history: 'x' } },
    { record_type: 'state' },
  ]
  const run = readAll([meta(threadId), ...garbage, userEvent('still here')])
  assert.deepEqual(
    run.outcomes.slice(1, 6).map((outcome) => outcome.unknown?.recordType),
    ['(null)', '(number)', '(string)', '(array)', '(array)'],
  )
  assert.ok(run.outcomes.every((outcome) => outcome.class !== 'captured' || outcome.events.length > 0))
  assert.deepEqual(run.texts('human'), ['still here'])
  assert.equal(run.events.at(-1)?.sessionId, threadId)
})

test('restore accepts an empty object, garbage and older partial states', () => {
  for (const stored of [
    '{}',
    'not json',
    '[]',
    'null',
    '"x"',
    '{"calls":[[1,2]],"said":"no","lastAt":"soon"}',
  ]) {
    assert.deepEqual(codexReader.restore(stored), initialCodexState, stored)
  }
  const partial = codexReader.restore('{"sessionId":"abc","cwd":"/w","calls":[["c1","shell"]]}')
  assert.equal(partial.sessionId, 'abc')
  assert.equal(partial.cwd, '/w')
  // An older state's raw call id is kept as its fingerprint, which still finds the call.
  assert.deepEqual(partial.calls, [[fingerprint('c1'), 'shell']])
  const step = codexReader.read(partial, item('function_call_output', { call_id: 'c1', output: 'ok' }))
  assert.equal(step.outcome.events[0]?.toolName, 'shell')
  const state = readAll([meta(threadId), userEvent('hi')]).state
  assert.deepEqual(codexReader.restore(codexReader.serialise(state)), state)
})

test('calls without outputs are forgotten beyond a bound; an output clears its call', () => {
  const calls = Array.from({ length: 200 }, (_, i) =>
    item('function_call', { name: 'exec_command', arguments: `{"cmd":"echo ${i}"}`, call_id: `call_${i}` }),
  )
  const run = readAll([
    meta(threadId),
    ...calls,
    item('function_call_output', { call_id: 'call_199', output: 'x' }),
  ])
  assert.equal(run.state.calls.length, maxCalls - 1)
  assert.equal(run.events.at(-1)?.toolName, 'exec_command')
  assert.ok(codexReader.serialise(run.state).length < 8 * 1024)
})

test('tool outputs: plain text, JSON in a string, content arrays and one content item', () => {
  const run = readAll([
    meta(threadId),
    item('function_call_output', {
      call_id: 'a',
      output: '{"output":"total 8\\n","metadata":{"exit_code":0}}',
    }),
    item('function_call_output', { call_id: 'b', output: '[{"text":"task 60.1"},{"text":"pending"}]' }),
    item('custom_tool_call_output', {
      call_id: 'c',
      output: [{ type: 'input_text', text: 'a.txt' }, { type: 'input_image' }],
    }),
    item('function_call_output', { call_id: 'd', output: { type: 'input_text', text: 'one item' } }),
    item('function_call_output', { call_id: 'e', output: '{not json' }),
    item('function_call_output', { call_id: 'f', output: '' }),
  ])
  assert.deepEqual(run.texts('tool_output'), [
    'total 8\n',
    'task 60.1\npending',
    'a.txt',
    'one item',
    '{not json',
  ])
  assert.deepEqual(run.outcomes.at(-1), { class: 'skipped', reason: 'empty', events: [] })
})

test('tool calls of every kind name their tool', () => {
  const run = readAll([
    meta(threadId),
    item('function_call', {
      name: 'spawn_agent',
      namespace: 'collaboration',
      arguments: '{"message":"go"}',
      call_id: 'a',
    }),
    item('custom_tool_call', {
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch',
      call_id: 'b',
    }),
    item('local_shell_call', {
      call_id: 'c',
      status: 'completed',
      action: { type: 'exec', command: ['ls', '-la'] },
    }),
    item('web_search_call', { status: 'completed', action: { type: 'search', query: 'sqlite fts5 rank' } }),
    item('tool_search_call', { call_id: 'd', arguments: { query: 'calendar' } }),
    item('image_generation_call', {
      status: 'completed',
      revised_prompt: 'a red lease',
      result: 'iVBORw0KGgo=',
    }),
    item('web_search_call', { status: 'completed' }),
  ])
  assert.deepEqual(
    run.events.map((e) => [e.toolName, e.text]),
    [
      ['collaboration.spawn_agent', 'collaboration.spawn_agent {"message":"go"}'],
      ['apply_patch', 'apply_patch *** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch'],
      ['local_shell', 'local_shell ls -la'],
      ['web_search', 'web_search sqlite fts5 rank'],
      ['tool_search', 'tool_search calendar'],
      ['image_generation', 'image_generation a red lease'],
    ],
  )
  assert.deepEqual(run.outcomes.at(-1), { class: 'skipped', reason: 'empty', events: [] })
})

test('reasoning: summaries are thinking, encrypted-only is counted, nothing at all is empty', () => {
  const run = readAll([
    meta(threadId),
    item('reasoning', {
      summary: [{ type: 'summary_text', text: '**Plan**' }],
      content: null,
      encrypted_content: 'gAAA',
    }),
    item('reasoning', { summary: [], content: [{ type: 'reasoning_text', text: 'raw thought' }] }),
    item('reasoning', { summary: [], content: null, encrypted_content: 'gAAAA' }),
    item('reasoning', { summary: [], content: null }),
    event('agent_reasoning', { text: '**Plan**' }),
  ])
  assert.deepEqual(run.texts('thinking'), ['**Plan**', 'raw thought'])
  assert.deepEqual(
    run.outcomes.slice(3).map((outcome) => [outcome.reason, outcome.encryptedReasoning]),
    [
      ['encrypted', 1],
      ['empty', undefined],
      ['duplicate', undefined],
    ],
  )
})

test('context that reached the model: hook context, compaction summary, hook prompts, peer messages, errors', () => {
  const run = readAll([
    meta(threadId),
    item('message', {
      role: 'developer',
      content: [
        { type: 'input_text', text: '<permissions instructions>sandbox</permissions instructions>' },
        { type: 'input_text', text: 'Lease held: src/db.ts by alice' },
      ],
      internal_chat_message_metadata_passthrough: {
        content_item_kinds: ['permissions.instructions', 'hooks.additional_context'],
      },
    }),
    item('message', {
      role: 'developer',
      content: [{ type: 'input_text', text: '<collaboration_mode>x</collaboration_mode>' }],
    }),
    line('compacted', {
      message: 'Summary: leases done.',
      replacement_history: [{ type: 'message', role: 'user', content: [] }],
    }),
    line('compacted', { message: '', replacement_history: [] }),
    userItem('<hook_prompt hook_run_id="r1">Run the tests before stopping.</hook_prompt>'),
    line('inter_agent_communication', {
      author: '/root/worker',
      recipient: '/root',
      content: 'tests pass',
      trigger_turn: false,
    }),
    item('agent_message', {
      author: '/root/worker',
      recipient: '/root',
      content: [{ type: 'input_text', text: 'tests pass' }],
    }),
    event('error', { message: 'stream disconnected before completion' }),
    userItem('<user_shell_command>\n<command>ls</command>\n<result>a.txt</result>\n</user_shell_command>'),
  ])
  assert.deepEqual(run.texts('system'), [
    'Lease held: src/db.ts by alice',
    'Summary: leases done.',
    '<hook_prompt hook_run_id="r1">Run the tests before stopping.</hook_prompt>',
    '/root/worker → /root\ntests pass',
    'stream disconnected before completion',
  ])
  assert.deepEqual(
    run.outcomes.slice(2).map((outcome) => outcome.reason ?? outcome.class),
    ['injected', 'captured', 'empty', 'captured', 'captured', 'duplicate', 'captured', 'captured'],
  )
  assert.deepEqual(
    run.events.filter((e) => e.kind === 'tool_output').map((e) => e.toolName),
    ['user_shell'],
  )
})

test('every built text is bounded to 64 KiB', () => {
  const huge = 'x'.repeat(3 * maxBuiltText)
  const run = readAll([
    meta(threadId),
    userEvent(huge),
    item('function_call_output', { call_id: 'a', output: huge }),
    item('function_call_output', {
      call_id: 'b',
      output: Array(100).fill({ type: 'input_text', text: huge.slice(0, 5000) }),
    }),
    item('custom_tool_call', { name: 'apply_patch', input: huge, call_id: 'c' }),
  ])
  assert.equal(run.events.length, 4)
  for (const e of run.events) assert.ok(e.text.length <= maxBuiltText, `${e.kind} ${e.text.length}`)
})

test('attribution: cwd follows turn_context, time follows each line, legacy items take the last time', () => {
  const run = readAll([
    { id: 'legacy-1', timestamp: '2025-09-10T18:58:38.331Z', instructions: 'x', git: { branch: 'dev' } },
    { record_type: 'state' },
    userItem('<environment_context>\n  <cwd>/home/u/app</cwd>\n</environment_context>').payload,
    userItem('hello').payload,
  ])
  assert.deepEqual(codexReader.facts(run.state), {
    sessionId: 'legacy-1',
    cliVersion: null,
    firstCwd: '/home/u/app',
  })
  assert.deepEqual(
    run.events.map((e) => [e.text, e.cwd, e.branch, e.at]),
    [['hello', '/home/u/app', 'dev', Date.parse('2025-09-10T18:58:38.331Z')]],
  )
  const envelope = readAll([
    meta(threadId),
    line('turn_context', { cwd: '/work/app/sub' }),
    userEvent('there'),
  ])
  assert.equal(envelope.events[0]?.cwd, '/work/app/sub')
  assert.equal(envelope.events[0]?.at, clock)
  assert.equal(codexReader.facts(envelope.state).firstCwd, '/work/app')
})
