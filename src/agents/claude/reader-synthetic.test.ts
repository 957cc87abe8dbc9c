import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { ReadEvent, ReadOutcome } from '../transcript-reader.ts'
import { type ClaudeState, claudeReader } from './claude-reader.ts'
import { maxBuiltText } from './tool-text.ts'

/**
 * Shapes the corpus lacks, written the way Claude Code writes them. Records go through the reader
 * in order, with the state round-tripped through its serialised form as capture does.
 */
function readAll(records: readonly unknown[]): {
  outcomes: ReadOutcome[]
  events: ReadEvent[]
  state: ClaudeState
} {
  let state = claudeReader.initialState()
  const outcomes: ReadOutcome[] = []
  for (const record of records) {
    const step = claudeReader.read(claudeReader.restore(claudeReader.serialise(state)), record)
    state = step.state
    outcomes.push(step.outcome)
  }
  return { outcomes, events: outcomes.flatMap((outcome) => outcome.events), state }
}

const session = 'a3f1c2d4-0000-4000-8000-000000000001'
const base = {
  sessionId: session,
  version: '2.1.150',
  cwd: '/work/app',
  gitBranch: 'main',
  userType: 'external',
}
const at = (second: number): string => `2026-05-04T10:00:${String(second).padStart(2, '0')}.000Z`

function user(
  content: unknown,
  second: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...base,
    type: 'user',
    isSidechain: false,
    message: { role: 'user', content },
    timestamp: at(second),
    ...extra,
  }
}

function assistant(id: string, block: unknown, second: number): Record<string, unknown> {
  return {
    ...base,
    type: 'assistant',
    message: { id, role: 'assistant', content: [block] },
    timestamp: at(second),
  }
}

function enqueue(content: string, second: number): Record<string, unknown> {
  return { type: 'queue-operation', operation: 'enqueue', timestamp: at(second), sessionId: session, content }
}

function queuedCommand(prompt: unknown, second: number, commandMode = 'prompt'): Record<string, unknown> {
  return {
    ...base,
    type: 'attachment',
    timestamp: at(second),
    attachment: { type: 'queued_command', prompt, commandMode, origin: { kind: 'human' } },
  }
}

const humans = (events: readonly ReadEvent[]): string[] =>
  events.filter((event) => event.kind === 'human').map((event) => event.text)

/** Mid-session: the agent is already working on this prompt when the next one is typed. */
const opener = (): Record<string, unknown> => user('start the refactor', 0)

test('a prompt typed while the agent is busy is one human event: enqueue, then its queued_command echo', () => {
  const { outcomes, events } = readAll([
    opener(),
    enqueue('also fix the lint', 1),
    queuedCommand('also fix the lint', 5),
  ])
  assert.deepEqual(humans(events), ['start the refactor', 'also fix the lint'])
  assert.deepEqual(outcomes[2], { class: 'skipped', reason: 'duplicate', events: [] })
  assert.equal(events[1]?.at, Date.parse(at(1)))
  assert.equal(events[1]?.cliVersion, '2.1.150')
})

test('older 2.1.1xx: an enqueued prompt echoed as a plain user record is one human event', () => {
  const { outcomes, events } = readAll([opener(), enqueue('run the tests', 1), user('run the tests', 30)])
  assert.deepEqual(humans(events), ['start the refactor', 'run the tests'])
  assert.equal(outcomes[2]?.reason, 'duplicate')
})

test('a -p run opens with its enqueue: the echo, which carries version and cwd, is the one human event', () => {
  const { outcomes, events } = readAll([enqueue('Create notes.txt', 1), user('Create notes.txt', 2)])
  assert.deepEqual(humans(events), ['Create notes.txt'])
  assert.deepEqual(outcomes[0], { class: 'skipped', reason: 'lifecycle', events: [] })
  assert.equal(events[0]?.cliVersion, '2.1.150')
  assert.equal(events[0]?.cwd, '/work/app')
  assert.equal(events[0]?.at, Date.parse(at(2)))
})

test('an enqueue held back at the start of a file is not lost when another prompt drains the queue', () => {
  const { events } = readAll([enqueue('first words', 1), user('other words', 9)])
  assert.deepEqual(humans(events), ['first words', 'other words'])
  assert.equal(events[0]?.at, Date.parse(at(1)))
  assert.equal(events[0]?.cliVersion, '2.1.150')
})

test('two queued prompts echoed out of order are two human events and two duplicates', () => {
  const { outcomes, events } = readAll([
    opener(),
    enqueue('first', 1),
    enqueue('second', 2),
    queuedCommand('second', 3),
    queuedCommand('first', 4),
  ])
  assert.deepEqual(humans(events), ['start the refactor', 'first', 'second'])
  assert.deepEqual(
    outcomes.map((outcome) => outcome.reason),
    [undefined, undefined, undefined, 'duplicate', 'duplicate'],
  )
})

test('an echo is consumed: the same words typed again later are a new human event', () => {
  const { events } = readAll([enqueue('yes', 1), queuedCommand('yes', 2), user('yes', 40)])
  assert.deepEqual(humans(events), ['yes', 'yes'])
})

test('a queued prompt never echoed does not swallow the same words typed after another prompt', () => {
  const { events } = readAll([enqueue('yes', 1), user('no, wait', 10), user('yes', 20)])
  assert.deepEqual(humans(events), ['yes', 'no, wait', 'yes'])
})

test('a queued prompt older than the echo window is not an echo', () => {
  const later = { ...user('continue', 0), timestamp: '2026-05-04T17:00:00.000Z' }
  const { events } = readAll([enqueue('continue', 0), later])
  assert.deepEqual(humans(events), ['continue', 'continue'])
})

test('a local slash command run while a prompt is queued does not drop the queued prompt', () => {
  const login = {
    ...base,
    type: 'system',
    subtype: 'local_command',
    timestamp: at(3),
    content:
      '<command-name>/login</command-name>\n  <command-message>login</command-message>\n  <command-args></command-args>',
  }
  const { events } = readAll([opener(), enqueue('then deploy', 1), login, queuedCommand('then deploy', 5)])
  assert.deepEqual(humans(events), ['start the refactor', 'then deploy', '/login'])
})

test('a queued_command without an enqueue (file starting mid-session) is still the human', () => {
  assert.deepEqual(humans(readAll([queuedCommand([{ type: 'text', text: 'look at the logs' }], 1)]).events), [
    'look at the logs',
  ])
})

test('queued task notifications and bash-mode queued commands', () => {
  const notice =
    '<task-notification>\n<task-id>b2</task-id>\n<status>completed</status>\n</task-notification>'
  const { outcomes, events } = readAll([
    enqueue(notice, 1),
    queuedCommand(notice, 2, 'task-notification'),
    queuedCommand('git status', 3, 'bash'),
  ])
  assert.deepEqual(
    outcomes.map((outcome) => outcome.reason),
    ['injected', 'injected', undefined],
  )
  assert.deepEqual(humans(events), ['! git status'])
})

test('a ! shell command is human; its output is tool output of Bash', () => {
  const { events } = readAll([
    user('<bash-input>ls -la</bash-input>', 1),
    user('<bash-stdout>total 8\ndrwxr-xr-x  2 me</bash-stdout><bash-stderr></bash-stderr>', 2),
  ])
  assert.deepEqual(
    events.map((event) => [event.kind, event.text, event.toolName]),
    [
      ['human', '! ls -la', null],
      ['tool_output', 'total 8\ndrwxr-xr-x  2 me', 'Bash'],
    ],
  )
})

test('an image pasted with a prompt leaves the words; an image alone is empty', () => {
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }
  const { outcomes, events } = readAll([
    user([{ type: 'text', text: 'why is this button grey? [Image #1]' }, image], 1, { imagePasteIds: [1] }),
    user([image], 2),
  ])
  assert.deepEqual(humans(events), ['why is this button grey? [Image #1]'])
  assert.equal(outcomes[1]?.reason, 'empty')
})

test('tool results: array content keeps its text parts, and each result in a record is its own event', () => {
  const { events } = readAll([
    assistant(
      'msg_1',
      { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: '/work/app/a.png' } },
      1,
    ),
    assistant('msg_1', { type: 'tool_use', id: 'toolu_b', name: 'Grep', input: { pattern: 'TODO' } }, 1),
    user(
      [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_a',
          content: [
            { type: 'text', text: 'image 640x480' },
            { type: 'image', source: {} },
            { type: 'text', text: 'ok' },
          ],
        },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'src/a.ts:3: // TODO' },
      ],
      2,
      { toolUseResult: {} },
    ),
  ])
  const outputs = events.filter((event) => event.kind === 'tool_output')
  assert.deepEqual(
    outputs.map((event) => [event.callId, event.toolName, event.text]),
    [
      ['toolu_a', 'Read', 'image 640x480\nok'],
      ['toolu_b', 'Grep', 'src/a.ts:3: // TODO'],
    ],
  )
})

test('lines of one API message share a joinKey; encrypted and redacted thinking is only counted', () => {
  const { outcomes, events } = readAll([
    assistant('msg_2', { type: 'thinking', thinking: '', signature: 'EqoBCkYIBxgCKkA' }, 1),
    assistant('msg_2', { type: 'text', text: 'First part.' }, 2),
    assistant('msg_2', { type: 'redacted_thinking', data: 'EmwKAhgB' }, 3),
    assistant('msg_2', { type: 'text', text: 'Second part.' }, 4),
  ])
  assert.deepEqual(
    events.map((event) => [event.kind, event.text, event.joinKey]),
    [
      ['assistant', 'First part.', 'msg_2'],
      ['assistant', 'Second part.', 'msg_2'],
    ],
  )
  assert.deepEqual(outcomes[0], { class: 'skipped', reason: 'encrypted', events: [], encryptedReasoning: 1 })
  assert.equal(outcomes[2]?.encryptedReasoning, 1)
})

test('a huge tool input or result is bounded before it is built', () => {
  const huge = 'x'.repeat(1_000_000)
  const { events } = readAll([
    assistant(
      'msg_3',
      { type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: '/a', content: huge } },
      1,
    ),
    user([{ type: 'tool_result', tool_use_id: 'toolu_w', content: huge }], 2),
  ])
  for (const event of events)
    assert.ok(event.text.length <= maxBuiltText, `${event.kind} ${event.text.length}`)
  assert.ok(events[0]?.text.startsWith('Write {"file_path":"/a","content":"xxx'))
})

test('records without a timestamp take the last time seen; an empty gitBranch is no branch', () => {
  const { events } = readAll([
    enqueue('before any time', Number.NaN),
    user('hello', 7, { gitBranch: '' }),
    { ...assistant('msg_4', { type: 'text', text: 'hi' }, 0), timestamp: undefined },
  ])
  assert.deepEqual(
    events.map((event) => [event.at, event.branch]),
    [
      [0, null],
      [Date.parse(at(7)), null],
      [Date.parse(at(7)), 'main'],
    ],
  )
})

test('text the CLI wrote in the human place is never human', () => {
  const { outcomes, events } = readAll([
    user(
      '<local-command-caveat>Caveat: The messages below were generated by the user…</local-command-caveat>',
      1,
      {
        isMeta: true,
      },
    ),
    user('Base directory for this skill: /skills/review\n\n# Review', 2, { isMeta: true }),
    user([{ type: 'text', text: '[Request interrupted by user for tool use]' }], 3),
    user('<task-notification><status>done</status></task-notification>', 4, {
      origin: { kind: 'task-notification' },
    }),
    user('Summarise the open PRs', 5, { origin: { kind: 'channel' } }),
    user('fix it\n<system-reminder>The user opened a.ts</system-reminder>', 6),
    user(
      [
        { type: 'text', text: '<system-reminder>todo list is empty</system-reminder>' },
        { type: 'text', text: 'go' },
      ],
      7,
    ),
  ])
  assert.deepEqual(
    outcomes.slice(0, 4).map((outcome) => outcome.reason),
    ['injected', undefined, 'lifecycle', 'injected'],
  )
  assert.deepEqual(
    events.map((event) => [event.kind, event.text]),
    [
      ['system', 'Base directory for this skill: /skills/review\n\n# Review'],
      ['system', 'Summarise the open PRs'],
      ['human', 'fix it\n'],
      ['human', 'go'],
    ],
  )
})

test('the CLI speaking as the assistant: an API error is recalled, filler is not', () => {
  const synthetic = (text: string, isApiErrorMessage: boolean): Record<string, unknown> => ({
    ...assistant('c4c3', { type: 'text', text }, 1),
    message: { id: 'c4c3', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text }] },
    isApiErrorMessage,
  })
  const { outcomes, events } = readAll([
    synthetic('API Error: 529 Overloaded', true),
    synthetic('No response requested.', false),
  ])
  assert.deepEqual(
    events.map((event) => [event.kind, event.text]),
    [['system', 'API Error: 529 Overloaded']],
  )
  assert.equal(outcomes[1]?.reason, 'injected')
})

test('hook output that reached the model, retried API errors and recaps are system events', () => {
  const attachment = (payload: Record<string, unknown>): Record<string, unknown> => ({
    ...base,
    type: 'attachment',
    timestamp: at(1),
    attachment: payload,
  })
  const { outcomes, events } = readAll([
    attachment({
      type: 'hook_success',
      hookName: 'SessionStart:startup',
      hookEvent: 'SessionStart',
      content: 'ctx',
    }),
    attachment({ type: 'hook_success', hookName: 'PostToolUse:Bash', content: '', stdout: '{}' }),
    attachment({ type: 'hook_additional_context', hookEvent: 'SessionStart', content: 'lease held by bob' }),
    attachment({
      type: 'hook_blocking_error',
      hookName: 'Stop',
      blockingError: { blockingError: 'tests fail' },
    }),
    {
      ...base,
      type: 'system',
      subtype: 'api_error',
      timestamp: at(2),
      error: { message: 'Overloaded' },
      retryAttempt: 2,
      maxRetries: 10,
    },
    { ...base, type: 'system', subtype: 'away_summary', content: 'Reviewing PR #79.', timestamp: at(3) },
  ])
  assert.equal(outcomes[1]?.reason, 'empty')
  assert.deepEqual(
    events.map((event) => event.text),
    [
      'SessionStart:startup hook success: ctx',
      'SessionStart hook additional context: lease held by bob',
      'Stop hook blocking error: tests fail',
      'API error (retry 2/10): Overloaded',
      'Reviewing PR #79.',
    ],
  )
  assert.ok(events.every((event) => event.kind === 'system'))
})

test('an unknown record type or subtype is reported with its sorted top-level keys', () => {
  const { outcomes } = readAll([
    { type: 'baz', zeta: 1, alpha: 2 },
    { ...base, type: 'attachment', attachment: { type: 'foo' } },
    { ...base, type: 'system', subtype: 'bar' },
    { ...base, type: 'progress', data: { type: 'qux' } },
    { message: 'no type at all' },
  ])
  assert.deepEqual(
    outcomes.map((outcome) => [outcome.class, outcome.unknown?.recordType, outcome.unknown?.signature]),
    [
      ['unknown', 'baz', 'alpha,type,zeta'],
      ['unknown', 'attachment/foo', 'attachment,cwd,gitBranch,sessionId,type,userType,version'],
      ['unknown', 'system/bar', 'cwd,gitBranch,sessionId,subtype,type,userType,version'],
      ['unknown', 'progress/qux', 'cwd,data,gitBranch,sessionId,type,userType,version'],
      ['unknown', '(missing)', 'message'],
    ],
  )
})

test('values that are not records are unknown, and never throw', () => {
  const { outcomes, state } = readAll([null, 42, 'user', [{ type: 'user' }], true, {}])
  assert.deepEqual(
    outcomes.map((outcome) => [outcome.class, outcome.unknown?.recordType]),
    [
      ['unknown', '(null)'],
      ['unknown', '(number)'],
      ['unknown', '(string)'],
      ['unknown', '(array)'],
      ['unknown', '(boolean)'],
      ['unknown', '(missing)'],
    ],
  )
  assert.deepEqual(claudeReader.facts(state), { sessionId: null, cliVersion: null, firstCwd: null })
})

test('known types with unexpected shapes are skipped as empty, not unknown', () => {
  const { outcomes } = readAll([
    { ...base, type: 'user' },
    { ...base, type: 'user', message: { content: 7 } },
    { ...base, type: 'assistant', message: 'text' },
    { ...base, type: 'attachment', attachment: null },
    {
      ...base,
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 5, content: { a: 1 } }] },
    },
  ])
  assert.ok(outcomes.every((outcome) => outcome.class === 'skipped' && outcome.reason === 'empty'))
})
